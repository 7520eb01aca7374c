"""Kueue's kueue.x-k8s.io/v1beta2 API as strict models, and the JSON Schemas taugen ships for it.

Written for taugen from the Kueue v0.19.2 API, not copied from its CRDs. The schemas check what
a CRD's structural schema checks (types, enums, required fields, sizes, patterns), closed at
every level; CEL rules (x-kubernetes-validations) are each model's `checks` (api/rules.py).
Regenerate the committed files with `taugen schema --out schemas`.
"""

from __future__ import annotations

from taugen.api.kueue.admissioncheck import AdmissionCheck
from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.cohort import Cohort
from taugen.api.kueue.common import API_VERSION
from taugen.api.kueue.flavor import ResourceFlavor
from taugen.api.kueue.meta import KueueModel
from taugen.api.kueue.multikueue import MultiKueueCluster, MultiKueueConfig
from taugen.api.kueue.priority import WorkloadPriorityClass
from taugen.api.kueue.queues import LocalQueue
from taugen.api.kueue.topology import Topology
from taugen.api.schema import manifest_schema_files
from taugen.models.schemas import SCHEMA_DIR

KINDS: dict[str, type[KueueModel]] = {
    "ClusterQueue": ClusterQueue,
    "LocalQueue": LocalQueue,
    "ResourceFlavor": ResourceFlavor,
    "Topology": Topology,
    "WorkloadPriorityClass": WorkloadPriorityClass,
    "Cohort": Cohort,
    "AdmissionCheck": AdmissionCheck,
    "MultiKueueConfig": MultiKueueConfig,
    "MultiKueueCluster": MultiKueueCluster,
}

__all__ = ["API_VERSION", "KINDS", "SCHEMA_DIR", "kueue_schema_files"]


def kueue_schema_files() -> dict[str, bytes]:
    """`kueue.x-k8s.io/<kind>_v1beta2.json` (relative to schemas/) -> deterministic JSON text."""
    return manifest_schema_files({(API_VERSION, kind): model for kind, model in KINDS.items()})
