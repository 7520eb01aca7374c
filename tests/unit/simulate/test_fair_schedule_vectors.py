"""R49, R52: one scheduling cycle of simulate's engine with Kueue's fair sharing on restates
Kueue v0.19.2's TestScheduleForFairSharing (pkg/scheduler/scheduler_fs_test.go;
tests/unit/simulate/fair-schedule-vectors.yaml): which runs are admitted, which stay pending,
which are preempted and why, and the flavor chosen where the case is about that choice."""

from __future__ import annotations

from typing import Any

import pytest

from taugen.engines.admission.engine import FAIR_ALONE, FAIR_SHARING, PREEMPTION, simulate
from taugen.engines.admission.model import NO_PREEMPTION
from taugen.schedulers.kueue.model import DEFAULT_STRATEGIES
from tests.unit.simulate.fair_vectors import load, sim_input

SETS, VECTORS = load("fair-schedule-vectors.yaml")
STATED = [v for v in VECTORS if "outOfScope" not in v]


def run_vector(case: dict[str, Any], cycles: int | None = 1) -> dict[str, Any]:
    strategies = DEFAULT_STRATEGIES if case.get("fairSharing", True) else None
    result = simulate(sim_input(case, SETS, strategies), cycles)
    incoming = {f"ns/{r['name']}" for r in case["incoming"]}
    name = {r.key: r.key.split("/", 1)[1] for r in result.runs}
    found: dict[str, Any] = {
        "status": {name[r.key]: r.status for r in result.runs if r.key in incoming},
        "preempted": {name[v.key]: v.reason for r in result.runs for v in r.victims},
    }
    if "flavors" in case["expected"]:
        found["flavors"] = {
            name[r.key]: r.flavor for r in result.runs if name[r.key] in case["expected"]["flavors"]
        }
    return found


def test_every_case_is_named_once() -> None:
    """The figures of docs/simulate.md: 22 cases of TestScheduleForFairSharing, 21 stated."""
    names = [v["name"] for v in VECTORS]
    assert len(set(names)) == len(names) == 22
    assert all(n.startswith("TestScheduleForFairSharing/") for n in names)
    assert len(STATED) == 21
    assert all(v["outOfScope"].strip() for v in VECTORS if v not in STATED)


def test_the_case_out_of_scope_decides_as_its_cluster_would() -> None:
    """With reclaimWithinCohort Never, as the API server defaults it, no preemptor may preempt
    while borrowing: all three stay pending and nothing is preempted."""
    case = next(v for v in VECTORS if "outOfScope" in v)
    preemptors = {r["name"]: "pending" for r in case["incoming"]}
    assert run_vector(case) == {"status": preemptors, "preempted": {}}


def test_overlapping_targets_are_tried_again_in_the_next_cycle() -> None:
    """Past Kueue's one cycle: the run skipped for an overlapping target is admitted once its
    other victim is preempted (b1, in its own ClusterQueue)."""
    case = next(v for v in STATED if v["name"].endswith("skip_overlapping_preemption_targets"))
    assert run_vector(case, None) == {
        "status": {"eng-alpha/preemptor": "admitted", "eng-beta/pretending-preemptor": "admitted"},
        "preempted": {
            "eng-alpha/a1": "InClusterQueue",
            "eng-gamma/c1": "InCohortFairSharing",
            "eng-beta/b1": "InClusterQueue",
        },
    }


@pytest.mark.parametrize("case", STATED, ids=[v["name"] for v in STATED])
def test_vector(case: dict[str, Any]) -> None:
    assert run_vector(case) == case["expected"]


def test_fair_sharing_decides_nine_of_them_otherwise_than_classical() -> None:
    """The same vectors with fair sharing off: 9 answers change, so these cases are decided by
    the fair-sharing order and preemption, not by what the classical engine already does."""
    differ = [v["name"] for v in STATED if run_vector({**v, "fairSharing": False}) != v["expected"]]
    assert len(differ) == 9


def test_the_notes_say_which_mode_decided() -> None:
    """R49: fair sharing on a cohort tree, on a lone ClusterQueue (it decides nothing there),
    and off (the classical note, no fairSharing in the result)."""
    case = next(v for v in STATED if v["name"].endswith("fair_sharing_schedule_highest_priority_first"))
    lone = next(v for v in STATED if v["name"].endswith("not_enough_resources_with_fair_sharing_enabled"))
    lone = {**lone, "queues": [{"name": "sales", "resources": {"cpu": "50"}}]}
    on = simulate(sim_input(case, SETS, ("LessThanInitialShare",)))
    alone = simulate(sim_input(lone, SETS, DEFAULT_STRATEGIES))
    off = simulate(sim_input(case, SETS, None))
    assert (on.notes, on.fair_sharing) == (
        (FAIR_SHARING.format("LessThanInitialShare"),),
        ("LessThanInitialShare",),
    )
    assert (alone.notes, alone.preemption) == ((NO_PREEMPTION, FAIR_ALONE), False)
    assert (off.notes, off.fair_sharing) == ((PREEMPTION,), None)
