"""JSON Schemas generated from the models (committed in schemas/): the one generator.

`schema_text` writes every schema taugen ships, the input kinds' here and the upstream kinds'
(taugen/api/schema.py), the same way: draft 2020-12, an `$id` naming its file under schemas/,
the kind as title, deterministic text.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema

from taugen import PACKAGE
from taugen.models.inventory import ClusterInventory
from taugen.models.lock import Lock
from taugen.models.profile import WorkloadProfile
from taugen.models.project import Project
from taugen.models.rules import RulesFile, RulesValues
from taugen.models.run import Run
from taugen.models.workloads import WorkloadSet


def _schema_dir() -> Path:
    """The one committed tree, schemas/ at the repository root: a wheel packages it as
    taugen/schemas (pyproject's force-include); a source checkout reads it where it is."""
    packaged = PACKAGE / "schemas"
    return packaged if packaged.is_dir() else PACKAGE.parent / "schemas"


SCHEMA_DIR = _schema_dir()
DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_BASE = "https://taugen.tau.azure.com/schemas/"
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


def schema_text(
    file: str, title: str, model: type[BaseModel], generator: type[GenerateJsonSchema] = GenerateJsonSchema
) -> bytes:
    """The self-contained schema of `model` (local $defs only), to be committed as schemas/`file`."""
    schema = {
        "$schema": DIALECT,
        "$id": f"{ID_BASE}{file}",
        **model.model_json_schema(schema_generator=generator),
        "title": title,
    }
    return (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode()


def schema_files() -> dict[str, bytes]:
    """File name -> deterministic JSON Schema text, per input kind."""
    names = {kind: f"{kind.lower()}.schema.json" for kind in KINDS}
    return {names[kind]: schema_text(names[kind], kind, model) for kind, model in KINDS.items()}
