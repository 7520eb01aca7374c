"""Issue 35 (SPEC R48, R50; T8): preemption by each tenant's own policy, against the real
Kueue v0.19.2 (minimalkueue) and the real API server.

The scenarios are in simkueue_preempt_scenarios.py: a cohort of two or three tenants on four
8-GPU hosts, some runs admitted first (best-effort borrowers, or a full cohort), then runs of
the guaranteed tenants under each preemption policy variant and priorities of TauGrid's two
tiers and two declared ones (batch 500, urgent 1500). simkueue_preempt.py plays them a run at
a time and follows Kueue's preemptions. After every step, every run's outcome (admitted on
which hosts, pending, or preempted) and the step's preemptions (which run evicted which, for
which of Kueue's reasons) are compared: what `taugen simulate` says, what Kueue did; the final
victims also with what this file expects, and simulate's words for each reason with Kueue's
Preempted condition."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from taugen.commands.build import BuildOptions, build
from taugen.context.session import open_project
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.simkueue_preempt import (
    Preempted,
    kueue_victims,
    kueue_words,
    last_outcomes,
    play_scenario,
    report,
    simulate_steps,
    victims_of,
)
from tests.realcluster.simkueue_preempt_scenarios import SCENARIOS, write_project

pytestmark = pytest.mark.realcluster
THREADS = 4
RECLAIM, WHILE_BORROWING, IN_QUEUE = "InCohortReclamation", "InCohortReclaimWhileBorrowing", "InClusterQueue"
Final = tuple[dict[str, tuple[str, str]], set[str]]  # victim -> (preemptor, reason); the runs left pending
# What Kueue v0.19.2 does (pkg/scheduler/preemption/preemption.go, classical/, common/ordering.go):
# candidates of other queues first, lower priority first, the most recently admitted first
EXPECTED: dict[str, Final] = {
    "pr-reclaim-any": ({"c2": ("a1", RECLAIM)}, set()),  # batch (500) reclaims from default (1000)
    "pr-reclaim-lower": ({"c3": ("a2", RECLAIM)}, {"a0", "a1"}),  # default spares default; urgent reclaims
    "pr-reclaim-lower-tiers": ({"c0": ("a1", RECLAIM)}, set()),  # only the batch borrower is lower
    "pr-reclaim-never": ({}, {"a1"}),  # urgent, but never reclaims (nor borrows to preempt)
    # two victims: the batch borrower, then the newest; b0 (batch) reclaims from a default one (Any)
    "pr-reclaim-pair": ({"c0": ("a0", RECLAIM), "c3": ("a0", RECLAIM), "c2": ("b0", RECLAIM)}, set()),
    "pr-reclaim-two": ({"c3": ("a0", RECLAIM), "c2": ("b0", RECLAIM), "c1": ("a1", RECLAIM)}, set()),
    "pr-borrow-lower": ({"c1": ("a2", WHILE_BORROWING)}, {"a3"}),  # a3 (default) spares c0 (default)
    "pr-borrow-threshold-above": ({"a1": ("a2", IN_QUEUE)}, set()),  # c at 1000 > 500: its own queue's
    "pr-borrow-threshold-at": ({"c1": ("a2", WHILE_BORROWING)}, set()),  # 1000 <= 1000
    "pr-borrow-never": ({"a0": ("a2", IN_QUEUE)}, set()),  # no preemption while borrowing: own batch run
    "pr-within-lower": ({"a0": ("a2", IN_QUEUE), "a2": ("a3", IN_QUEUE), "a1": ("a4", IN_QUEUE)}, set()),
    "pr-within-never": ({}, {"a2"}),
    "pr-within-newer": ({"a1": ("a2", IN_QUEUE)}, {"a3"}),  # a3 is newer than a0 and a2 (equal priority)
    "pr-within-older": ({"a1": ("a2", IN_QUEUE)}, set()),  # a2 is older than a0 and a1: a1, admitted last
    "pr-shared-within": ({"c0": ("c2", IN_QUEUE)}, set()),  # the shared queue's own LowerPriority
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("preempt")
    found = write_project(root, SCENARIOS)
    build(BuildOptions(project_file=found))
    return found


def test_preemption_policies_preempt_as_kueue_preempts(
    control_plane: ControlPlane, project: Path, pytestconfig: pytest.Config
) -> None:
    context = open_project(project)
    steps = {s.name: simulate_steps(project, context, s) for s in SCENARIOS}
    began = time.monotonic()
    with ThreadPoolExecutor(THREADS) as pool:
        played = list(
            pool.map(
                lambda s: play_scenario(control_plane.kube, s, steps[s.name], control_plane.alive), SCENARIOS
            )
        )
    seconds = time.monotonic() - began
    details = project.parent / "preemption-vs-kueue.txt"
    details.write_text(report(played))
    record(pytestconfig, f"preemption vs Kueue: {figure(played, seconds)} (every step: {details})")
    taugen = {p.name: [(s.outcomes, s.victims) for s in p.steps] for p in played}
    kueue = {p.name: [(k.outcomes, kueue_victims(k)) for k in p.played] for p in played}
    assert taugen == kueue
    assert {p.name: _final(p, kueue=False) for p in played} == EXPECTED
    assert {p.name: _final(p, kueue=True) for p in played} == EXPECTED
    first = [
        k.outcomes[s.run] for p in played for s, k in list(zip(p.steps, p.played, strict=True))[: p.first]
    ]
    assert all(o[0] == "admitted" for o in first)  # the runs admitted first are
    said = [
        (s.words.get(e.victim), e.evicted[0])
        for p in played
        for s, k in zip(p.steps, p.played, strict=True)
        for e in k.evictions
    ]
    # simulate's words for each reason are Kueue's (HumanReadablePreemptionReasons); Evicted: Preempted
    assert said == [(kueue_words(e), "Preempted") for p in played for k in p.played for e in k.evictions]


def _final(found: Preempted, kueue: bool) -> Final:
    pending = {name for name, o in last_outcomes(found, kueue).items() if o == ("pending",)}
    return victims_of(found, kueue), pending


def figure(played: list[Preempted], seconds: float) -> str:
    steps = [(s, k) for p in played for s, k in zip(p.steps, p.played, strict=True)]
    final = [(p.steps[-1], p.played[-1]) for p in played]
    runs = [(key, o, f[1].outcomes.get(key)) for f in final for key, o in f[0].outcomes.items()]
    taugen_victims = {
        (p.name, run, v) for p in played for s in p.steps for run, vs in s.victims.items() for v in vs
    }
    kueue_found = {
        (p.name, run, v) for p in played for k in p.played for run, vs in kueue_victims(k).items() for v in vs
    }
    same_victim = {(n, r, v[0]) for n, r, v in taugen_victims} & {(n, r, v[0]) for n, r, v in kueue_found}
    words = [(s.words.get(e.victim), kueue_words(e)) for s, k in steps for e in k.evictions]
    return (
        f"{len(played)} scenarios, {len(steps)} steps, {len(runs)} runs: "
        f"{sum(s.outcomes == k.outcomes for s, k in steps)} of {len(steps)} steps with every run's outcome "
        f"as Kueue's, {sum(o == k for _, o, k in runs)} of {len(runs)} final outcomes (admitted on the same "
        f"hosts, pending, preempted); {len(taugen_victims)} preemptions simulated, {len(kueue_found)} by "
        f"Kueue, {len(same_victim)} the same preemptor and victim, {len(taugen_victims & kueue_found)} for "
        f"the same reason; of {len(words)} reasons {sum(t == k for t, k in words)} in Kueue's words; "
        f"{seconds:.0f} s on {THREADS} threads"
    )
