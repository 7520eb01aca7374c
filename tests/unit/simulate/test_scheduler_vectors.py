"""T8: one scheduling cycle of the simulation core reproduces the cases recorded from Kueue
v0.19.2's TestSchedule (tests/data/scheduler-vectors.yaml): admitted, pending and preempted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.preemption_vectors import SCHEDULER_VECTORS, load_vectors, run_vector

SETS, VECTORS = load_vectors(SCHEDULER_VECTORS)


def test_enough_vectors_are_recorded() -> None:
    assert len(VECTORS) >= 20
    assert len({v["name"] for v in VECTORS}) == len(VECTORS)
    assert all(v["name"].startswith("TestSchedule/") and v["cycles"] == 1 for v in VECTORS)


@pytest.mark.parametrize("case", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(case: dict[str, Any]) -> None:
    assert run_vector(case, SETS) == case["expected"]


def _vector(name: str) -> dict[str, Any]:
    return next(v for v in VECTORS if v["name"] == f"TestSchedule/{name}")


def test_later_cycles_retry_the_run_a_preemption_made_room_for() -> None:
    """Past Kueue's first cycle: the run that could not fit as the cycle began is tried again
    once the preemption freed quota (Kueue requeues the cohort's inadmissible workloads)."""
    case = {**_vector("multiple_CQs_need_preemption"), "cycles": None}
    assert run_vector(case, SETS) == {
        "status": {"eng-beta/preemptor": "admitted", "eng-alpha/pending": "admitted"},
        "preempted": {"eng-alpha/use-all": "InCohortReclamation"},
    }


def test_capacity_held_by_a_preemptor_with_no_victim_lasts_one_cycle() -> None:
    """The borrower blocked in the first cycle is admitted in the second: the preemptor with
    no victim waits as inadmissible and holds nothing any more."""
    name = "capacity_blocked_when_lending_clusterqueue_not_guaranteed_to_reclaim_(ReclaimWithinCohort=Never)"
    case = {**_vector(name), "cycles": None}
    assert run_vector(case, SETS) == {
        "status": {"eng-alpha/a2-pending": "pending", "eng-beta/b1-pending": "admitted"},
        "preempted": {},
    }


def test_a_run_no_cycle_reached_stays_pending() -> None:
    case = {**_vector("single_clusterQueue_full"), "cycles": 1}
    case["incoming"] = [
        *case["incoming"],
        {"name": "sales/second", "queue": "sales", "priority": 0, "requests": {"cpu": "1"}},
    ]
    case["expected"] = {"status": {"sales/new": "pending", "sales/second": "pending"}, "preempted": {}}
    assert run_vector(case, SETS) == case["expected"]
    assert run_vector({**case, "cycles": None}, SETS)["status"] == {
        "sales/new": "pending",
        "sales/second": "admitted",
    }
