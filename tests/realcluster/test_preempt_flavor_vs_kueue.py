"""Issue 35 (SPEC R47, R52): a guaranteed tenant's `flavorFungibility.whenCanPreempt` on the real
Kueue v0.19.2 (minimalkueue, the real API server) and in `taugen simulate`.

The scenarios are in simkueue_preemptflavor_scenarios.py: team-a's two `default` runs hold its
H200, then a `priority` run whose profile lists H200 then H100 comes; simkueue_preempt.py plays
them a run at a time and follows Kueue's preemptions. Two assertions: what the real Kueue
decided (each run's outcome, the victims with their preemptor and reason) is this file's
EXPECTED, checked against the live Kueue on every run; what simulate decides is compared with
it step by step, run by run (hosts included), and reported."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from taugen.commands.build import BuildOptions, build
from taugen.context.session import open_project
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.simkueue_preempt import (
    Outcome,
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
from tests.realcluster.simkueue_preemptflavor_scenarios import SCENARIOS, write_project

pytestmark = pytest.mark.realcluster
IN_QUEUE = "InClusterQueue"
# run -> outcome at the end (the class's host); victim -> (preemptor, Kueue's Preempted reason)
Final = tuple[dict[str, Outcome], dict[str, tuple[str, str]]]
HELD: dict[str, Outcome] = {"a0": ("admitted", ({"h200-0": 1},)), "a1": ("admitted", ({"h200-1": 1},))}
# What Kueue v0.19.2 does (flavorassigner.go shouldTryNextFlavor: with MayStopSearch the search
# stops at the first flavor that fits by preempting; with TryNextFlavor, its default, H100 fits
# without): the newest admitted of the lower priority goes (common/ordering.go)
EXPECTED: dict[str, Final] = {
    "pf-stop": (
        {"a0": HELD["a0"], "a1": ("preempted",), "a2": ("admitted", ({"h200-1": 1},))},
        {"a1": ("a2", IN_QUEUE)},
    ),
    "pf-next": (HELD | {"a2": ("admitted", ({"h100-0": 1},))}, {}),
    "pf-default": (HELD | {"a2": ("admitted", ({"h100-0": 1},))}, {}),
    # both need a preemption: no flavor is preferred to the first (isPreferred: the same
    # preemption mode, no borrowing), so H200's newest lower-priority run goes
    "pf-both": (
        {
            **HELD,
            "a1": ("preempted",),
            "a2": ("admitted", ({"h200-1": 1},)),
            "a3": ("admitted", ({"h100-0": 1},)),
        },
        {"a1": ("a2", IN_QUEUE)},
    ),
}


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory, control_plane: ControlPlane, pytestconfig: pytest.Config
) -> list[Preempted]:
    root = tmp_path_factory.mktemp("preemptflavor")
    project = write_project(root, SCENARIOS)
    build(BuildOptions(project_file=project))
    context = open_project(project)
    steps = {s.name: simulate_steps(project, context, s) for s in SCENARIOS}
    began = time.monotonic()
    with ThreadPoolExecutor(len(SCENARIOS)) as pool:
        found = list(
            pool.map(
                lambda s: play_scenario(control_plane.kube, s, steps[s.name], control_plane.alive), SCENARIOS
            )
        )
    details = root / "preempt-flavor-vs-kueue.txt"
    details.write_text(report(found))
    record(
        pytestconfig,
        f"whenCanPreempt vs Kueue: {len(found)} scenarios played in {time.monotonic() - began:.0f} s "
        f"(every step: {details})",
    )
    return found


def test_r47_kueue_when_can_preempt_decides_as_recorded(played: list[Preempted]) -> None:
    first = [
        k.outcomes[s.run] for p in played for s, k in list(zip(p.steps, p.played, strict=True))[: p.first]
    ]
    assert all(o[0] == "admitted" for o in first)  # the runs admitted first are, on H200
    assert {p.name: final(p, kueue=True) for p in played} == EXPECTED, report(played)


def test_r52_simulate_when_can_preempt_agrees_with_kueue(
    played: list[Preempted], pytestconfig: pytest.Config
) -> None:
    for line in agreement(played):
        record(pytestconfig, line)
    taugen = {p.name: [(s.outcomes, s.victims) for s in p.steps] for p in played}
    kueue = {p.name: [(k.outcomes, kueue_victims(k)) for k in p.played] for p in played}
    assert taugen == kueue, report(played)
    assert {p.name: final(p, kueue=False) for p in played} == EXPECTED
    ours, kueues = reason_words(played)
    assert ours == kueues  # simulate's words for why are Kueue's ("prioritization in the ClusterQueue")


def final(found: Preempted, kueue: bool) -> Final:
    """Every run's outcome at the end and every victim with its preemptor and reason."""
    return last_outcomes(found, kueue), victims_of(found, kueue)


def agreement(found: list[Preempted]) -> list[str]:
    """Per scenario: the steps that agree in every run's outcome and the step's victims, and
    the runs whose final outcome is Kueue's."""
    lines = []
    for p in found:
        steps = steps_agreeing(p)
        ours, theirs = last_outcomes(p, kueue=False), last_outcomes(p, kueue=True)
        same = sum(ours[key] == theirs.get(key) for key in ours)
        lines.append(
            f"simulate vs Kueue, {p.name}: {steps} of {len(p.steps)} steps agree, "
            f"{same} of {len(ours)} runs end as Kueue's"
        )
    return lines
