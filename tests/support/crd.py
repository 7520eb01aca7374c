"""The CRD conversion is product code now (`taugen validate --crd`); tests import it from here."""

from __future__ import annotations

from taugen.validate.crd import (
    OBJECT_META,
    CrdVersion,
    Schema,
    load_crds,
    object_schema,
    strict_schema,
    validation_errors,
)
from taugen.validate.patterns import python_pattern

__all__ = [
    "OBJECT_META",
    "CrdVersion",
    "Schema",
    "load_crds",
    "object_schema",
    "python_pattern",
    "strict_schema",
    "validation_errors",
]
