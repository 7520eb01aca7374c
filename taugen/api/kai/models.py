"""KAI Scheduler's Topology and Queue, and Grove's ClusterTopologyBinding, as strict models.

Written for taugen from KAI Scheduler v0.17 (`pkg/apis/kai/v1alpha1/topology_types.go`,
`pkg/apis/scheduling/v2/queue_types.go`) and Grove's `grove.io/v1alpha1` API, not copied from
their CRDs. Closed at every level, like the Kueue models (taugen/api/kueue); the Topology CRD's
CEL rules are taugen's checks (unique labels: `unique-levels`, immutable nodeLabels:
`kai-level-labels`, api/rules.py) and semantic rule (hostname last: `hostname-last`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StrictFloat, StrictInt, StrictStr

from taugen.api.kueue.meta import ClusterObjectMeta, KueueModel
from taugen.api.kueue.topology import NODE_LABEL_PATTERN, UNIQUE_LEVELS, level_labels
from taugen.api.rules import Breach, ChangeCheck, Json, ObjectCheck

LabelKey = Annotated[StrictStr, Field(min_length=1, max_length=316, pattern=NODE_LABEL_PATTERN)]
Number = StrictInt | StrictFloat  # the CRD's `type: number`; -1 means unlimited (K2)


class KaiTopologyLevel(KueueModel):
    """One level: the node label naming a domain, and an alias workloads may use instead."""

    node_label: LabelKey
    alias: LabelKey | None = None


class KaiTopologySpec(KueueModel):
    levels: Annotated[list[KaiTopologyLevel], Field(min_length=1, max_length=16)]


def _same_labels(old: Json, new: Json) -> Iterator[Breach]:
    was, now = level_labels(old), level_labels(new)
    if was is not None and now is not None and was != now:
        yield Breach(("levels",), f"the levels' node labels cannot change (from {was} to {now}); aliases may")


class KaiTopology(KueueModel):
    """kai.scheduler/v1alpha1 Topology (cluster-scoped), named by `kai.scheduler/topology`."""

    api_version: Literal["kai.scheduler/v1alpha1"]
    kind: Literal["Topology"]
    metadata: ClusterObjectMeta
    spec: KaiTopologySpec

    checks: ClassVar[tuple[ObjectCheck, ...]] = (UNIQUE_LEVELS,)
    change_checks: ClassVar[tuple[ChangeCheck, ...]] = (
        ChangeCheck(
            "kai-level-labels",
            "spec",
            _same_labels,
        ),
    )


class QueueResource(KueueModel):
    """quota: deserved; overQuotaWeight: share of what is left over; limit: the hard cap."""

    quota: Number | None = None
    over_quota_weight: Number | None = None
    limit: Number | None = None


class QueueResources(KueueModel):
    """gpu in (fractions of) devices, cpu in millicores, memory in megabytes (10^6 bytes)."""

    cpu: QueueResource | None = None
    gpu: QueueResource | None = None
    memory: QueueResource | None = None


class QueueSpec(KueueModel):
    display_name: StrictStr | None = None
    parent_queue: StrictStr | None = None
    priority: StrictInt | None = None
    preempt_min_runtime: StrictStr | None = None
    reclaim_min_runtime: StrictStr | None = None
    resources: QueueResources | None = None


class Queue(KueueModel):
    """scheduling.run.ai/v2 Queue (cluster-scoped): a two-level hierarchy of parents and leaves."""

    api_version: Literal["scheduling.run.ai/v2"]
    kind: Literal["Queue"]
    metadata: ClusterObjectMeta
    spec: QueueSpec | None = None
    status: dict[str, Any] | None = Field(default=None, description="Written by KAI; not checked.")


# As Grove's CRD has them (tests/property/test_models_match_crds.py): not DNSLabel / LabelKey.
GROVE_DOMAIN = r"^[a-z][a-z0-9-]*$"
GROVE_KEY = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"


class GroveLevel(KueueModel):
    domain: Annotated[StrictStr, Field(min_length=1, max_length=63, pattern=GROVE_DOMAIN)]
    key: Annotated[StrictStr, Field(min_length=1, max_length=63, pattern=GROVE_KEY)]


class SchedulerTopologyBinding(KueueModel):
    """A scheduler topology managed outside Grove: Grove checks it for drift, never writes it."""

    scheduler_name: StrictStr
    topology_reference: StrictStr


class ClusterTopologyBindingSpec(KueueModel):
    levels: Annotated[list[GroveLevel], Field(min_length=1)]
    scheduler_topology_bindings: list[SchedulerTopologyBinding] | None = None


class ClusterTopologyBinding(KueueModel):
    """grove.io/v1alpha1 ClusterTopologyBinding (cluster-scoped)."""

    api_version: Literal["grove.io/v1alpha1"]
    kind: Literal["ClusterTopologyBinding"]
    metadata: ClusterObjectMeta
    spec: ClusterTopologyBindingSpec
    status: dict[str, Any] | None = Field(default=None, description="Written by Grove; not checked.")
