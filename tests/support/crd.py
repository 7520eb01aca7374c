"""The CRD conversion is product code now (`taugen validate --crd`); tests import it from here,
with `validation_errors`, which only the tests use (issue 18)."""

from __future__ import annotations

from functools import cache
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
from tests.conftest import shared_crds

__all__ = [
    "OBJECT_META",
    "CrdVersion",
    "Schema",
    "load_crds",
    "object_schema",
    "strict_schema",
    "upstream_crds",
    "validation_errors",
]


def validation_errors(schema: Schema, obj: Any) -> list[str]:
    """Every error of obj against schema as `path.to.field: message`, sorted; [] when valid."""
    validator = with_re2_patterns(Draft7Validator)(schema)
    return sorted(
        f"{'.'.join(str(step) for step in error.absolute_path) or '<root>'}: {error.message}"
        for error in validator.iter_errors(obj)
    )


@cache
def _loaded(project: str) -> dict[tuple[str, str], CrdVersion]:
    return load_crds(shared_crds(project))


def upstream_crds(project: str) -> dict[tuple[str, str], CrdVersion]:
    """The upstream CRDs of ../shared/crds/<project>, read once a session; skips without them."""
    shared_crds(project)  # the skip, before the cache
    return _loaded(project)
