"""Issue 33: one project floor: each cluster resolved and planned once per invocation, with the
build's options, and a manager's quotas its workers' summed in one place (M2)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import taugen.context.cluster
from taugen.compile.quota import ClassQuota
from taugen.context.cluster import PlanOptions
from taugen.context.session import open_project

REPO = Path(__file__).resolve().parents[2]
PROJECT = REPO / "taugen.yaml"


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    seen: Counter[str] = Counter()
    real = taugen.context.cluster.resolve  # type: ignore[attr-defined]

    def spy(inputs: Any) -> Any:
        seen[inputs.cluster.name] += 1
        return real(inputs)

    monkeypatch.setattr(taugen.context.cluster, "resolve", spy)
    return seen


def test_a_manager_plans_its_workers_once_and_sums_their_quotas(resolved: Counter[str]) -> None:
    project = open_project(PROJECT)
    manager = project.one("fleet-hub")
    workers = [project.one(w) for w in ("westus3-dev", "westus2-dev")]
    assert project.one("fleet-hub") is manager
    assert resolved == Counter({"fleet-hub": 1, "westus3-dev": 1, "westus2-dev": 1})
    classes = sorted({q.gpu_class for w in workers for q in w.quotas})
    summed = [
        ClassQuota(
            c,
            *(sum(getattr(q, f) for w in workers for q in w.quotas if q.gpu_class == c) for f in FIELDS),
        )
        for c in classes
    ]
    assert list(manager.quotas) == summed
    assert manager.manager is not None and manager.manager.block == project.loaded.project.multikueue
    assert all(w.manager is None for w in workers)


FIELDS = ("gpus", "observed_gpus", "slots", "nodes")


def test_a_manager_comes_after_its_workers(resolved: Counter[str]) -> None:
    project = open_project(PROJECT)
    hub = project.pick("fleet-hub")
    assert [c.name for c in project.needed([hub])] == ["westus3-dev", "westus2-dev", "fleet-hub"]
    everyone = project.select(None)
    assert project.needed(everyone)[-1] == hub
    assert sorted(c.name for c in project.needed(everyone)) == sorted(c.name for c in everyone)
    assert resolved == Counter()  # choosing clusters resolves none


def test_the_plan_takes_the_builds_options() -> None:
    plan = PlanOptions(allow_quota_decrease=True, allow_stale=True, build=True)
    project = open_project(PROJECT, plan)
    assert project.plan is plan
    view = project.one("eastus-prod")
    assert view.quotas == open_project(PROJECT).one("eastus-prod").quotas  # no mark above the inventory
