"""KAI Scheduler's (and Grove's) API as strict models, and the JSON Schemas taugen ships for them.

The schemas land where `taugen validate` looks (schemas/<group>/<kind>_<version>.json, as for
Kueue) and are written by `taugen schema --out taugen/schemas`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taugen import PACKAGE
from taugen.api.kai.models import ClusterTopologyBinding, Queue, Topology
from taugen.api.kueue.schema import DIALECT, ManifestSchema

SCHEMA_DIR = PACKAGE / "schemas"
KAI_TOPOLOGY_API = "kai.scheduler/v1alpha1"
QUEUE_API = "scheduling.run.ai/v2"
GROVE_API = "grove.io/v1alpha1"
KINDS: dict[tuple[str, str], type[BaseModel]] = {
    (KAI_TOPOLOGY_API, "Topology"): Topology,
    (QUEUE_API, "Queue"): Queue,
    (GROVE_API, "ClusterTopologyBinding"): ClusterTopologyBinding,
}

__all__ = ["GROVE_API", "KAI_TOPOLOGY_API", "KINDS", "QUEUE_API", "kai_schema_files", "write_kai_schemas"]


def schema_file_name(api_version: str, kind: str) -> str:
    group, version = api_version.split("/")
    return f"{group}/{kind.lower()}_{version}.json"


def _schema(api_version: str, kind: str, model: type[BaseModel]) -> dict[str, Any]:
    return {
        "$schema": DIALECT,
        "$id": f"https://taugen.tau.azure.com/schemas/{schema_file_name(api_version, kind)}",
        **model.model_json_schema(schema_generator=ManifestSchema),
        "title": f"{kind} ({api_version})",
    }


def kai_schema_files() -> dict[str, bytes]:
    """`<group>/<kind>_<version>.json` (relative to schemas/) -> deterministic JSON text."""
    return {
        schema_file_name(api, kind): (
            json.dumps(_schema(api, kind, model), indent=2, sort_keys=True) + "\n"
        ).encode()
        for (api, kind), model in KINDS.items()
    }


def write_kai_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    written = []
    for name, text in kai_schema_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(text)
        written.append(folder / name)
    return written
