"""JSON Schemas of the Kueue kinds, generated from the models (committed in schemas/)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from taugen.api.kueue.common import API_VERSION

DIALECT = "https://json-schema.org/draft/2020-12/schema"
GROUP, VERSION = API_VERSION.split("/")


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


def schema_file_name(kind: str) -> str:
    """Where kubeconform looks: `{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`."""
    return f"{GROUP}/{kind.lower()}_{VERSION}.json"


def kind_schema(kind: str, model: type[BaseModel]) -> dict[str, Any]:
    """The self-contained schema of one kind: local $defs only, no remote $ref."""
    return {
        "$schema": DIALECT,
        "$id": f"https://taugen.tau.azure.com/schemas/{schema_file_name(kind)}",
        **model.model_json_schema(schema_generator=ManifestSchema),
        "title": f"{kind} ({API_VERSION})",
    }
