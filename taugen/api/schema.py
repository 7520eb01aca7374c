"""JSON Schemas of the upstream kinds taugen writes (Kueue, KAI, Grove, NFD), from their models.

One layout, kubeconform's CRDs-catalog one (`schemas/<group>/<kind>_<version>.json`), which is
also where `taugen validate` looks; written by `taugen schema --out schemas`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from taugen.models.schemas import schema_text

__all__ = ["ManifestSchema", "manifest_schema_files", "schema_file"]


class ManifestSchema(GenerateJsonSchema):
    """An optional field is one to leave out, never null; and the field titles are noise."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        if schema.get("default", ...) is None:
            return self.generate_inner(schema["schema"])
        return super().default_schema(schema)

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def schema_file(api_version: str, kind: str) -> str:
    """Where kubeconform looks: `{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`."""
    group, _, version = api_version.rpartition("/")
    return f"{group}/{kind.lower()}_{version}.json"


def manifest_schema_files(kinds: Mapping[tuple[str, str], type[BaseModel]]) -> dict[str, bytes]:
    """(apiVersion, kind) -> model, as file (relative to schemas/) -> deterministic JSON text."""
    return {
        schema_file(api, kind): schema_text(schema_file(api, kind), f"{kind} ({api})", model, ManifestSchema)
        for (api, kind), model in kinds.items()
    }
