"""The Flux healthCheckExprs `taugen init` writes, evaluated by a CEL interpreter (cel-python)
on sample ClusterQueue and LocalQueue objects, as kustomize-controller evaluates them: the
object's top-level fields are the variables; `current` means ready, `failed` failed, neither
in progress (issue 8)."""

from __future__ import annotations

from typing import Any

import celpy
import pytest
import yaml
from celpy.adapter import json_to_cel

from taugen.commands.init import init


@pytest.fixture(scope="module")
def exprs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    target = tmp_path_factory.mktemp("flux")
    init(target)
    ks = next(yaml.safe_load_all((target / "flux" / "my-cluster.yaml").read_text()))  # the core
    return {c["kind"]: {k: c[k] for k in ("current", "failed")} for c in ks["spec"]["healthCheckExprs"]}


def verdict(checks: dict[str, str], obj: dict[str, Any]) -> str:
    env = celpy.Environment()
    activation = {key: json_to_cel(value) for key, value in obj.items()}  # the object's fields, by name
    for name in ("failed", "current"):
        if env.program(env.compile(checks[name])).evaluate(activation):
            return name
    return "in progress"


def _queue(kind: str, *conditions: dict[str, str]) -> dict[str, Any]:
    return {
        "kind": kind,
        "metadata": {"name": "q", "generation": 1},
        "status": {"conditions": list(conditions)},
    }


CASES = {
    "active": ([{"type": "Active", "status": "True", "reason": "Ready"}], "current"),
    "inactive": ([{"type": "Active", "status": "False", "reason": "FlavorNotFound"}], "failed"),
    "not-yet-reported": ([], "in progress"),
    "other-condition": ([{"type": "Other", "status": "True"}], "in progress"),
}


@pytest.mark.parametrize("kind", ["ClusterQueue", "LocalQueue"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_queue_health_expressions(exprs: dict[str, dict[str, str]], kind: str, case: str) -> None:
    conditions, expected = CASES[case]
    assert verdict(exprs[kind], _queue(kind, *conditions)) == expected


def test_a_status_without_conditions_is_in_progress(exprs: dict[str, dict[str, str]]) -> None:
    assert (
        verdict(exprs["ClusterQueue"], {"kind": "ClusterQueue", "metadata": {}, "status": {}})
        == "in progress"
    )
