"""Issue 35 (SPEC R49, R51, R52; T2's weights): fair sharing on the real Kueue v0.19.2 (its full
manager, with a Configuration of our own: kueue_manager.py) and in `taugen simulate`.

The scenarios are in simkueue_fair_scenarios.py: tenants of weights 1, 2 and 0, a nested
cohort (R51 `groups:`, once with a weight of its own), idle quota borrowed, then runs that
Kueue admits by preempting borrowers to restore the weighted shares, each played under each of
Kueue's preemptionStrategies lists (one manager per list, its Configuration's fairSharing the
clusters' `kueue.fairSharing`). simkueue_preempt.py plays them a run at a time, as it does the
classical preemption scenarios.

Two assertions. What the real Kueue decided (the victims, their preemptors and reasons, and the
runs left pending) is this file's EXPECTED, checked against the live Kueue on every run. What
`taugen simulate` decides is compared with it, step by step and run by run, and reported."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from taugen.commands.build import BuildOptions, build
from taugen.context.session import open_project
from tests.realcluster.binaries import Binaries
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.kueue_manager import manager
from tests.realcluster.simkueue_fair_scenarios import (
    SCENARIOS,
    STRATEGIES,
    fair_sharing,
    write_project,
)
from tests.realcluster.simkueue_preempt import (
    Preempted,
    kueue_victims,
    last_outcomes,
    play_scenario,
    reason_words,
    report,
    simulate_steps,
    steps_agreeing,
    victims_of,
)

pytestmark = pytest.mark.realcluster
THREADS = 4
Final = tuple[dict[str, tuple[str, str]], set[str]]  # victim -> (preemptor, reason); the runs left pending
FAIR = "InCohortFairSharing"  # v0.19.2's Preempted reason: "due to Fair Sharing within the cohort"


def _by(preemptor: str) -> tuple[str, str]:
    return (preemptor, FAIR)


# What the real Kueue v0.19.2 decided (its manager, fair sharing on), per scenario and strategies
# list. Shares are borrowed GPUs (and slots, in step) per 48 lendable, divided by the weight
# (pkg/cache/scheduler/fair_sharing.go); the preemptor's share with its run is compared with the
# target's after (LessThanOrEqualToFinalShare, <=) or before (LessThanInitialShare, <) the victim
# goes (pkg/scheduler/preemption/fairsharing/strategy.go); the next strategy only when the first
# frees too little. All runs are of one priority: no classical rule would preempt any of them.
_FW_EARLY = {"a4": _by("b1"), "a3": _by("b2")}  # b at 8/2, 16/2 borrowed: below a's 24, 16 after
_FZ_EARLY = {"z4": _by("a1"), "z3": _by("a2"), "z2": _by("a3")}  # z, weight 0, borrowing: infinite
EXPECTED: dict[str, Final] = {
    # b3: b at 24/2 = 12 vs a's 16 before and 8 after its a2 goes: only LessThanInitialShare
    "fw-final": (_FW_EARLY, {"b3", "b4"}),
    "fw-initial": (_FW_EARLY | {"a2": _by("b3")}, {"b4"}),
    "fw-both": (_FW_EARLY | {"a2": _by("b3")}, {"b4"}),  # the second strategy when the first fails
    # a4: a at 32 borrowed vs z's infinite before, 0 after z1 goes (z no longer borrows): only
    # LessThanInitialShare;
    # z5 borrows at an infinite share: it preempts nobody under any list
    "fz-final": (_FZ_EARLY, {"a4", "z5"}),
    "fz-initial": (_FZ_EARLY | {"z1": _by("a4")}, {"z5"}),
    "fz-both": (_FZ_EARLY | {"z1": _by("a4")}, {"z5"}),
    # org (weight 1) vs team-d at the cluster's cohort: a3 puts org at 8 borrowed, d has 16, 8
    # after: both strategies; a4 (org 16 vs d's 8, 0 after) neither
    "fg-final": ({"d2": _by("a3")}, {"a4"}),
    "fg-initial": ({"d2": _by("a3")}, {"a4"}),
    "fg-both": ({"d2": _by("a3")}, {"a4"}),
    # org at weight 3: a4 puts it at 16/3 borrowed, below d's 8 before (0 after): only
    # LessThanInitialShare preempts
    "fg3-final": ({"d2": _by("a3")}, {"a4"}),
    "fg3-initial": ({"d2": _by("a3"), "d1": _by("a4")}, set()),
    "fg3-both": ({"d2": _by("a3"), "d1": _by("a4")}, set()),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fair")
    found = write_project(root, [s for listed in SCENARIOS.values() for s in listed])
    build(BuildOptions(project_file=found))
    return found


@pytest.fixture(scope="module", params=list(STRATEGIES))
def played(
    request: pytest.FixtureRequest,
    fair_plane: ControlPlane,
    binaries: Binaries,
    project: Path,
    pytestconfig: pytest.Config,
) -> list[Preempted]:
    """Every scenario of one strategies list, on a manager configured with that list."""
    suffix: str = request.param
    scenarios = SCENARIOS[suffix]
    context = open_project(project)
    steps = {s.name: simulate_steps(project, context, s) for s in scenarios}
    # the manager's fairSharing is the clusters' kueue.fairSharing in taugen.yaml, as it is
    (fair,) = {json.dumps(fair_sharing(s)) for s in scenarios}
    with manager(fair_plane, binaries, json.loads(fair), suffix) as running:
        began = time.monotonic()
        with ThreadPoolExecutor(THREADS) as pool:
            found = list(
                pool.map(
                    lambda s: play_scenario(fair_plane.kube, s, steps[s.name], fair_plane.alive), scenarios
                )
            )
    details = project.parent / f"fair-sharing-vs-kueue-{suffix}.txt"
    details.write_text(report(found))
    record(
        pytestconfig,
        f"fair sharing [{', '.join(STRATEGIES[suffix])}]: manager ready in {running.seconds:.1f} s, "
        f"{len(found)} scenarios played in {time.monotonic() - began:.0f} s (every step: {details})",
    )
    return found


def test_r49_kueue_with_fair_sharing_preempts_as_recorded(played: list[Preempted]) -> None:
    first = [
        k.outcomes[s.run] for p in played for s, k in list(zip(p.steps, p.played, strict=True))[: p.first]
    ]
    assert all(o[0] == "admitted" for o in first)  # the runs admitted first are, borrowing idle quota
    found = {p.name: final(p, kueue=True) for p in played}
    assert found == {p.name: EXPECTED[p.name] for p in played}


def test_r52_simulate_with_fair_sharing_agrees_with_kueue(
    played: list[Preempted], pytestconfig: pytest.Config
) -> None:
    for line in agreement(played):
        record(pytestconfig, line)
    taugen = {p.name: [(s.outcomes, s.victims) for s in p.steps] for p in played}
    kueue = {p.name: [(k.outcomes, kueue_victims(k)) for k in p.played] for p in played}
    assert taugen == kueue
    assert {p.name: final(p, kueue=False) for p in played} == {p.name: EXPECTED[p.name] for p in played}
    ours, kueues = reason_words(played)
    assert ours == kueues  # simulate's words for why are Kueue's ("Fair Sharing within the cohort")


def final(found: Preempted, kueue: bool) -> Final:
    """Every victim with its preemptor and Kueue's reason, and the runs left pending at the end."""
    pending = {name for name, o in last_outcomes(found, kueue).items() if o == ("pending",)}
    return victims_of(found, kueue), pending


def agreement(found: Sequence[Preempted]) -> list[str]:
    """Per scenario: how many steps agree in every run's outcome and the step's victims, then
    each run's final outcome: the same (admitted on the same hosts, pending, preempted), or
    each side's."""
    lines = []
    for p in found:
        steps = steps_agreeing(p)
        ours, theirs = last_outcomes(p, kueue=False), last_outcomes(p, kueue=True)
        runs = [f"{key} {_same(ours[key], theirs.get(key))}" for key in sorted(ours)]
        lines.append(
            f"simulate vs Kueue, {p.name}: {steps} of {len(p.steps)} steps agree; runs: {', '.join(runs)}"
        )
    return lines


def _same(ours: tuple[object, ...], theirs: tuple[object, ...] | None) -> str:
    if ours == theirs:
        return "same"
    return f"simulate {ours[0]}, Kueue {theirs[0] if theirs else 'absent'}"
