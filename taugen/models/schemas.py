"""JSON Schemas of every input kind, generated from the models (committed in schemas/)."""

from __future__ import annotations

import json

from pydantic import BaseModel

from taugen import PACKAGE
from taugen.models.inventory import ClusterInventory
from taugen.models.lock import Lock
from taugen.models.profile import WorkloadProfile
from taugen.models.project import Project
from taugen.models.rules import RulesFile, RulesValues
from taugen.models.run import Run
from taugen.models.workloads import WorkloadSet

SCHEMA_DIR = PACKAGE / "schemas"
KINDS: dict[str, type[BaseModel]] = {
    "Project": Project,
    "ClusterInventory": ClusterInventory,
    "NodeLabelRules": RulesFile,
    "NodeLabelRulesValues": RulesValues,
    "WorkloadProfile": WorkloadProfile,
    "Run": Run,
    "WorkloadSet": WorkloadSet,
    "Lock": Lock,
}


def schema_files() -> dict[str, bytes]:
    """File name -> deterministic JSON Schema text."""
    files = {}
    for kind, model in KINDS.items():
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://taugen.tau.azure.com/schemas/{kind.lower()}.schema.json",
            **model.model_json_schema(),
            "title": kind,
        }
        files[f"{kind.lower()}.schema.json"] = (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode()
    return files
