"""The CRD conversion is product code now (`taugen validate --crd`); tests import it from here,
with `validation_errors`, which only the tests use (issue 18)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft7Validator

from taugen.validate.crd import (
    OBJECT_META,
    CrdVersion,
    Schema,
    load_crds,
    object_schema,
    strict_schema,
)
from taugen.validate.patterns import with_re2_patterns

__all__ = [
    "OBJECT_META",
    "CrdVersion",
    "Schema",
    "load_crds",
    "object_schema",
    "strict_schema",
    "validation_errors",
]


def validation_errors(schema: Schema, obj: Any) -> list[str]:
    """Every error of obj against schema as `path.to.field: message`, sorted; [] when valid."""
    validator = with_re2_patterns(Draft7Validator)(schema)
    return sorted(
        f"{'.'.join(str(step) for step in error.absolute_path) or '<root>'}: {error.message}"
        for error in validator.iter_errors(obj)
    )
