"""Topology: the node-label hierarchy topology-aware scheduling packs workloads into."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import LABEL_PREFIX, KueueModel

MAX_LEVELS = 16
# As the CRD has it: a label key whose name part has no length limit of its own.
NODE_LABEL_PATTERN = rf"^{LABEL_PREFIX}(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"


class TopologyLevel(KueueModel):
    """One level, named by the node label whose value identifies a domain at that level."""

    node_label: Annotated[StrictStr, Field(min_length=1, max_length=316, pattern=NODE_LABEL_PATTERN)]


class TopologySpec(KueueModel):
    """Levels from the broadest (e.g. a site) to the narrowest (e.g. kubernetes.io/hostname)."""

    levels: Annotated[list[TopologyLevel], Field(min_length=1, max_length=MAX_LEVELS)]


class Topology(KueueObject):
    """A named topology that ResourceFlavors refer to by topologyName."""

    kind: Literal["Topology"]
    spec: TopologySpec | None = None
