"""Every healthCheckExprs entry taugen writes (the cores of out/_flux/<cluster>/, G6), judged
as Flux judges it (tests/support/flux_health.py: fluxcd/pkg runtime/cel, RFC 0009): a queue is
Current only with a True Active condition for its current generation; an object with no status
is never Current (Flux's evaluation errors: the Kustomization is not Ready)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.compile.gitops.flux import QUEUE_HEALTH
from tests.support.flux_health import HealthCheckError, verdict

REPO = Path(__file__).resolve().parents[2]


def _written() -> list[dict[str, str]]:
    """Each distinct entry of the committed example's Flux files (build --check: a compile's)."""
    entries: dict[str, dict[str, str]] = {}
    for path in sorted((REPO / "out" / "_flux").glob("*/*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            for check in (doc or {}).get("spec", {}).get("healthCheckExprs", []):
                entries.setdefault(repr(sorted(check.items())), check)
    return list(entries.values())


WRITTEN = _written()


def test_the_example_writes_the_queue_checks_and_no_other() -> None:
    """The queues everywhere; the MultiKueue manager (fleet-hub) also its check and clusters (M1)."""
    assert sorted((c["apiVersion"], c["kind"]) for c in WRITTEN) == [
        ("kueue.x-k8s.io/v1beta2", "AdmissionCheck"),
        ("kueue.x-k8s.io/v1beta2", "ClusterQueue"),
        ("kueue.x-k8s.io/v1beta2", "LocalQueue"),
        ("kueue.x-k8s.io/v1beta2", "MultiKueueCluster"),
    ]
    assert all({k: c[k] for k in QUEUE_HEALTH} == QUEUE_HEALTH for c in WRITTEN)


def _active(status: str, observed: int = 3) -> dict[str, Any]:
    return {"type": "Active", "status": status, "reason": "Ready", "observedGeneration": observed}


def _queue(kind: str, status: dict[str, Any] | None, generation: int = 3) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": kind,
        "metadata": {"name": "taugrid", "generation": generation},
        "spec": {},
    }
    return obj if status is None else obj | {"status": status}


CASES: dict[str, tuple[dict[str, Any] | None, str]] = {
    "no-status-at-all": (None, "error"),  # just applied: Kueue has not written a status yet
    "status-without-conditions": ({}, "InProgress"),
    "no-conditions-yet": ({"conditions": []}, "InProgress"),
    "other-condition-only": ({"conditions": [{"type": "Other", "status": "True"}]}, "InProgress"),
    "active-unknown": ({"conditions": [_active("Unknown")]}, "InProgress"),
    "active-false": ({"conditions": [_active("False")]}, "Failed"),
    "active-true": ({"conditions": [_active("True")]}, "Current"),
    "active-true-for-an-older-generation": ({"conditions": [_active("True", observed=2)]}, "InProgress"),
    "active-false-for-an-older-generation": ({"conditions": [_active("False", observed=2)]}, "InProgress"),
    "stale-status-observedGeneration": (
        {"observedGeneration": 2, "conditions": [_active("True")]},
        "InProgress",  # Flux's own check, before any expression
    ),
}


def _judged(check: dict[str, str], obj: dict[str, Any]) -> str:
    try:
        return verdict(check, obj)
    except HealthCheckError:
        return "error"


@pytest.mark.parametrize("check", WRITTEN, ids=lambda c: c["kind"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_written_check_gives_the_intended_verdict(check: dict[str, str], case: str) -> None:
    status, expected = CASES[case]
    assert _judged(check, _queue(check["kind"], status)) == expected


@pytest.mark.parametrize("check", WRITTEN, ids=lambda c: c["kind"])
def test_no_case_but_a_true_active_condition_is_current(check: dict[str, str]) -> None:
    current = [
        case
        for case, (status, _) in sorted(CASES.items())
        if _judged(check, _queue(check["kind"], status)) == "Current"
    ]
    assert current == ["active-true"]


def test_the_evaluator_errs_where_flux_does() -> None:
    """fluxcd/pkg status_evaluator_test.go: an object without status, and a status without
    conditions read without has(), are evaluation errors, not verdicts."""
    exprs = {
        "inProgress": "has(status.observedGeneration) && metadata.generation != status.observedGeneration",
        "failed": "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')",
        "current": "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
    }
    statusless: list[dict[str, Any]] = [{}, {"status": {}}]
    for obj in statusless:
        with pytest.raises(HealthCheckError):
            verdict(exprs, obj)
    ready = {
        "metadata": {"generation": 1},
        "status": {"observedGeneration": 1, "conditions": [{"type": "Ready", "status": "True"}]},
    }
    assert verdict(exprs, ready) == "Current"
    with pytest.raises(HealthCheckError, match="Current not specified"):
        verdict({"failed": "true"}, ready)
