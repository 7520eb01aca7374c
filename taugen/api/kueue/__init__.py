"""Kueue's kueue.x-k8s.io/v1beta2 API as strict models, and the JSON Schemas taugen ships for it.

Written for taugen from the Kueue v0.19.2 API, not copied from its CRDs. The schemas check what
a CRD's structural schema checks (types, enums, required fields, sizes, patterns), closed at
every level; CEL rules (x-kubernetes-validations) are left to the API server.
Regenerate the committed files with `python -c 'from taugen.api.kueue import write_kueue_schemas;
write_kueue_schemas()'`.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from taugen import PACKAGE
from taugen.api.kueue.admissioncheck import AdmissionCheck
from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.cohort import Cohort
from taugen.api.kueue.common import API_VERSION
from taugen.api.kueue.flavor import ResourceFlavor
from taugen.api.kueue.priority import WorkloadPriorityClass
from taugen.api.kueue.queues import LocalQueue
from taugen.api.kueue.schema import GROUP, kind_schema, schema_file_name
from taugen.api.kueue.topology import Topology

SCHEMA_DIR = PACKAGE / "schemas"
KINDS: dict[str, type[BaseModel]] = {
    "ClusterQueue": ClusterQueue,
    "LocalQueue": LocalQueue,
    "ResourceFlavor": ResourceFlavor,
    "Topology": Topology,
    "WorkloadPriorityClass": WorkloadPriorityClass,
    "Cohort": Cohort,
    "AdmissionCheck": AdmissionCheck,
}

__all__ = ["API_VERSION", "KINDS", "SCHEMA_DIR", "kueue_schema_files", "write_kueue_schemas"]


def kueue_schema_files() -> dict[str, bytes]:
    """`kueue.x-k8s.io/<kind>_v1beta2.json` (relative to schemas/) -> deterministic JSON text."""
    return {
        schema_file_name(kind): (
            json.dumps(kind_schema(kind, model), indent=2, sort_keys=True) + "\n"
        ).encode()
        for kind, model in KINDS.items()
    }


def write_kueue_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    """Write the schemas under folder (schemas/ by default), removing stale ones; the paths written."""
    (folder / GROUP).mkdir(parents=True, exist_ok=True)
    files = kueue_schema_files()
    for stale in sorted((folder / GROUP).glob("*.json")):
        if stale.relative_to(folder).as_posix() not in files:
            stale.unlink()
    written = []
    for name, text in files.items():
        (folder / name).write_bytes(text)
        written.append(folder / name)
    return written
