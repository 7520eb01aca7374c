"""R49, R52: simulate's fair-sharing preemption restates Kueue v0.19.2's own cases
(pkg/scheduler/preemption/preemption_fair_test.go, TestFairPreemptions and
TestFairPreemptionSkipsUnsatisfiableTournament; tests/unit/simulate/fair-preemption-vectors.yaml):
for each, the workloads Kueue preempts for the incoming one, with Kueue's reason, and the quota
tree as it was before."""

from __future__ import annotations

from typing import Any

import pytest

from taugen.engines.admission.fair_preemption import fair_victims
from taugen.engines.admission.preemption import Preemptor
from taugen.schedulers.kueue.model import DEFAULT_STRATEGIES
from taugen.schedulers.kueue.quota import QuotaTree
from tests.unit.simulate.fair_vectors import admitted_of, cohorts_of, holder, load, queues_of, usage

SETS, VECTORS = load("fair-preemption-vectors.yaml")


def _tree_state(tree: QuotaTree) -> dict[str, dict[tuple[str, str], int]]:
    nodes = [*tree.queues.values(), *tree.cohorts.values()]
    return {f"{n.queue is None}:{n.name}": {k: v for k, v in n.usage.items() if v} for n in nodes}


def run_vector(case: dict[str, Any]) -> dict[str, str]:
    tree = QuotaTree.of(queues_of(case, SETS), cohorts_of(case))
    holders = [holder(raw) for raw in admitted_of(case)]
    for found in holders:
        tree.add(found.queue, found.usage)
    before = _tree_state(tree)
    incoming = case["incoming"]
    wanted = usage(incoming, "requests")
    preemptor = Preemptor(
        incoming["queue"], incoming.get("priority", 0), "2026-01-01T00:01:00+00:00", wanted, frozenset(wanted)
    )
    strategies = tuple(case.get("strategies", DEFAULT_STRATEGIES))
    victims = fair_victims(tree, preemptor, holders, lambda _: True, strategies)
    assert _tree_state(tree) == before  # Kueue's case checks the snapshot is left as it was
    return {v.key: v.reason for v in victims}


def test_every_case_is_named_once() -> None:
    """The figure of docs/simulate.md: 35 cases of TestFairPreemptions, 2 of the other test."""
    names = [v["name"] for v in VECTORS]
    assert len(set(names)) == len(names) == 37
    assert sum(n.startswith("TestFairPreemptions/") for n in names) == 35


@pytest.mark.parametrize("case", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(case: dict[str, Any]) -> None:
    assert run_vector(case) == case["expected"]
