"""Topology: the node-label hierarchy topology-aware scheduling packs workloads into."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import LABEL_PREFIX, KueueModel
from taugen.api.rules import Breach, ChangeCheck, Json, ObjectCheck, fixed, repeats

MAX_LEVELS = 16
# As the CRD has it: a label key whose name part has no length limit of its own.
NODE_LABEL_PATTERN = rf"^{LABEL_PREFIX}(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"


class TopologyLevel(KueueModel):
    """One level, named by the node label whose value identifies a domain at that level."""

    node_label: Annotated[StrictStr, Field(min_length=1, max_length=316, pattern=NODE_LABEL_PATTERN)]


class TopologySpec(KueueModel):
    """Levels from the broadest (e.g. a site) to the narrowest (e.g. kubernetes.io/hostname)."""

    levels: Annotated[list[TopologyLevel], Field(min_length=1, max_length=MAX_LEVELS)]


def level_labels(spec: Json) -> list[str] | None:
    """The levels' node labels, in order; None when a level is malformed (the schema says how)."""
    levels = spec.get("levels")
    if not isinstance(levels, list) or not all(isinstance(lv, dict) for lv in levels):
        return None
    labels = [lv.get("nodeLabel") for lv in levels]
    return labels if all(isinstance(label, str) for label in labels) else None


def _unique(spec: Json) -> Iterator[Breach]:
    labels = level_labels(spec) or []
    for index in repeats(labels):
        yield Breach(("levels", index, "nodeLabel"), f"level {labels[index]} is already a level above")


UNIQUE_LEVELS = ObjectCheck("unique-levels", "spec", _unique, "name each node label in one level only")


class Topology(KueueObject):
    """A named topology that ResourceFlavors refer to by topologyName."""

    kind: Literal["Topology"]
    spec: TopologySpec | None = None

    checks: ClassVar[tuple[ObjectCheck, ...]] = (UNIQUE_LEVELS,)
    change_checks: ClassVar[tuple[ChangeCheck, ...]] = (
        ChangeCheck(
            "immutable-field",
            "spec",
            fixed("levels", "a Topology's levels"),
        ),
    )
