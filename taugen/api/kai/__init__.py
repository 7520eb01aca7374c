"""KAI Scheduler's (and Grove's) API as strict models, and the JSON Schemas taugen ships for them.

The schemas land where `taugen validate` looks (schemas/<group>/<kind>_<version>.json, as for
Kueue) and are written by `taugen schema --out schemas`.
"""

from __future__ import annotations

from taugen.api.kai.models import ClusterTopologyBinding, KaiTopology, Queue
from taugen.api.kueue.meta import KueueModel
from taugen.api.schema import manifest_schema_files
from taugen.models.schemas import SCHEMA_DIR

KAI_TOPOLOGY_API = "kai.scheduler/v1alpha1"
QUEUE_API = "scheduling.run.ai/v2"
GROVE_API = "grove.io/v1alpha1"
RESERVED_QUEUES = ("default-queue", "default-parent-queue")  # KAI's Helm chart owns them (K2)
KINDS: dict[tuple[str, str], type[KueueModel]] = {
    (KAI_TOPOLOGY_API, "Topology"): KaiTopology,
    (QUEUE_API, "Queue"): Queue,
    (GROVE_API, "ClusterTopologyBinding"): ClusterTopologyBinding,
}

__all__ = ["GROVE_API", "KAI_TOPOLOGY_API", "KINDS", "QUEUE_API", "SCHEMA_DIR", "kai_schema_files"]


def kai_schema_files() -> dict[str, bytes]:
    """`<group>/<kind>_<version>.json` (relative to schemas/) -> deterministic JSON text."""
    return manifest_schema_files(KINDS)
