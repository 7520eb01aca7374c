"""The models of the upstream kinds taugen writes (taugen/api: Kueue, KAI, Grove, NFD) accept
exactly what the upstream CRDs' structural schemas accept (issue 20), read from ../shared/crds
(issue 30: none is committed; the tests skip without them, and CI has them).

For each kind: objects drawn from the CRD version's schema (tests/support/crdgen.py), and for
each drawn object every mutation that breaks one constraint of the schema at one place (a wrong
type, an unknown field, a required field dropped, one past a bound, off the enum or pattern).
The pydantic model's verdict must be the schema's, for every object. The oracle is the CRD's
`openAPIV3Schema` converted as `taugen validate --crd` converts it (closed, RE2 patterns, a
date-time must be one, as the API server checks; an int32 must fit one, since the controller's
Go field could not hold more, and the models refuse it); `metadata` is Kubernetes' ObjectMeta,
not the CRD's, and is not mutated here. CEL rules are the validate gate's (cel.py), not the models'.

A new upstream release (docs/development.md): point the test at its CRDs, run it; each
disagreement it prints is a model to change (or a schema change to read).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from jsonschema import Draft7Validator, FormatChecker
from pydantic import BaseModel, ValidationError

from taugen.api.kai import KINDS as KAI_KINDS
from taugen.api.kueue import API_VERSION as KUEUE_API
from taugen.api.kueue import KINDS as KUEUE_KINDS
from taugen.api.nfd import KIND as NFD_KIND
from taugen.api.nfd import NFD_API, NodeFeatureRule
from taugen.validate.crd import CrdVersion, load_crds, object_schema
from taugen.validate.patterns import with_re2_patterns
from tests.conftest import shared_crds
from tests.support.crdgen import mutations, replaced, values

MODELS: dict[tuple[str, str], type[BaseModel]] = {
    **{(KUEUE_API, kind): model for kind, model in KUEUE_KINDS.items()},
    **KAI_KINDS,
    (NFD_API, NFD_KIND): NodeFeatureRule,
}
FORMATS = FormatChecker([])


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    return not isinstance(value, str) or (("T" in value) and datetime.fromisoformat(value) is not None)


@FORMATS.checks("int32")
def _int32(value: object) -> bool:
    return not isinstance(value, int) or -(2**31) <= value < 2**31


@FORMATS.checks("int64")
def _int64(value: object) -> bool:
    return not isinstance(value, int) or -(2**63) <= value < 2**63


PROJECTS = ("grove", "kai", "kueue", "nfd")


@cache
def _upstream() -> dict[tuple[str, str], CrdVersion]:
    found: dict[tuple[str, str], CrdVersion] = {}
    for project in PROJECTS:
        found.update(load_crds(shared_crds(project)))
    return found


def upstream() -> dict[tuple[str, str], CrdVersion]:
    for project in PROJECTS:
        shared_crds(project)  # the skip, before the cache
    return _upstream()


def test_every_kind_taugen_writes_has_an_upstream_crd() -> None:
    assert sorted(MODELS) == sorted(k for k in MODELS if k in upstream())
    assert len(MODELS) == 13  # MultiKueueConfig and MultiKueueCluster since §11


def _model_accepts(model: type[BaseModel], obj: Any) -> bool:
    try:
        model.model_validate(obj)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("key", sorted(MODELS), ids=lambda k: f"{k[1]}.{k[0]}")
def test_the_model_accepts_exactly_what_the_crd_schema_accepts(key: tuple[str, str]) -> None:
    schema = object_schema(upstream()[key])
    oracle = with_re2_patterns(Draft7Validator)(schema, format_checker=FORMATS)
    model = MODELS[key]

    @given(values(schema))
    def agree(obj: dict[str, Any]) -> None:
        changed = [
            replaced(obj, path, new) for path, new in mutations(schema, obj) if path[:1] != ("metadata",)
        ]
        wrong = [
            json.dumps(o, default=str)
            for o in [obj, *changed]
            if oracle.is_valid(o) != _model_accepts(model, o)
        ]
        assert not wrong, f"{key}: the model and the CRD disagree on:\n" + "\n".join(wrong[:5])

    agree()


def test_the_mutations_break_what_they_say(  # the comparison above is not vacuous
) -> None:
    key = (KUEUE_API, "ResourceFlavor")
    schema = object_schema(upstream()[key])
    oracle = with_re2_patterns(Draft7Validator)(schema, format_checker=FORMATS)
    obj = {
        "apiVersion": KUEUE_API,
        "kind": "ResourceFlavor",
        "metadata": {"name": "gpu"},
        "spec": {
            "nodeLabels": {"a": "b"},
            "nodeTaints": [{"key": "k", "effect": "NoSchedule", "timeAdded": "2026-01-01T00:00:00Z"}],
        },
    }
    assert oracle.is_valid(obj) and _model_accepts(MODELS[key], obj)
    broken = [replaced(obj, path, new) for path, new in mutations(schema, obj)]
    refused = [o for o in broken if not oracle.is_valid(o)]
    assert len(broken) >= 15 and len(refused) >= 0.8 * len(broken)
    assert all(not _model_accepts(MODELS[key], o) for o in refused)
