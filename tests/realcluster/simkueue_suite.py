"""Many scenarios on one control plane (issue 31 item 5): each simulated by taugen, then played on
the real Kueue, several at once (their ClusterQueues share no cohort, so Kueue decides each
on its own), and every run's verdict summed up into the differential figure."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from taugen.context.session import ProjectContext, open_project
from taugen.engines.admission.project import SimulateOptions, prepare, simulate_tree
from tests.realcluster.kube import Kube
from tests.realcluster.simkueue_cluster import Outcome, play
from tests.realcluster.simkueue_compare import Plan, Verdict, compare, plan

THREADS = 4  # measured on two busy cores: more threads do not finish sooner


@dataclass(frozen=True)
class Case:
    label: str
    workloads: Path  # a WorkloadSet file
    cluster: str | None  # None: the set's own `cluster:` (or the project's only one)
    scenario: str  # the prefix of everything it puts on the real cluster


@dataclass(frozen=True)
class Played:
    name: str
    plan: Plan
    verdicts: tuple[Verdict, ...]
    outcome: Outcome  # Kueue's decisions, as played


def plan_cases(project_file: Path, cases: Sequence[Case]) -> list[tuple[str, Plan]]:
    """taugen's simulation of each case, as a plan to play (the project opened once)."""
    project: ProjectContext = open_project(project_file)
    found = []
    for case in cases:
        options = SimulateOptions(workloads=case.workloads, project_file=project_file, cluster=case.cluster)
        setup = prepare(options, project)
        found.append((case.label, plan(setup, simulate_tree(setup), case.scenario)))
    return found


def play_all(
    kube: Kube, plans: Sequence[tuple[str, Plan]], alive: Callable[[], bool], threads: int = THREADS
) -> tuple[list[Played], float]:
    began = time.monotonic()

    def one(item: tuple[str, Plan]) -> Played:
        name, found = item
        outcome = play(kube, found.scene, alive)
        return Played(name, found, tuple(compare(found, outcome)), outcome)

    with ThreadPoolExecutor(threads) as pool:
        played = list(pool.map(one, plans))
    return played, time.monotonic() - began


def disagreements(played: Sequence[Played]) -> list[str]:
    return [
        f"{p.name} {v.key}:\n  taugen: {v.taugen}\n  Kueue:  {v.kueue}"
        for p in played
        for v in p.verdicts
        if not (v.agree and v.stable)
    ]


def report(played: Sequence[Played]) -> str:
    """Every run's two answers, a line each, flagged where they differ in outcome (DIFF), in the
    kind of reason (REASON), in Kueue's words (WORDS), or over time (CHANGED)."""
    lines = []
    for p in played:
        for v in p.verdicts:
            flags = [
                f
                for f, bad in (
                    ("DIFF", not v.agree),
                    ("REASON", not v.reasons_agree),
                    ("WORDS", v.reason == "topology" and not v.text_agree),
                    ("CHANGED", not v.stable),
                )
                if bad
            ]
            lines += [
                f"{p.name} {v.key} {' '.join(flags)}".rstrip(),
                f"  taugen: {v.taugen}",
                f"  Kueue:  {v.kueue}",
            ]
    return "\n".join(lines) + "\n"


def figure(played: Sequence[Played], seconds: float, threads: int = THREADS) -> str:
    verdicts = [v for p in played for v in p.verdicts]
    agree = sum(v.agree and v.stable for v in verdicts)
    pending = [v for v in verdicts if v.status == "pending"]
    topology = [v for v in pending if v.reason == "topology"]
    return (
        f"{len(played)} scenarios, {len(verdicts)} runs: {agree} agree with Kueue "
        f"(admitted or pending, flavor, pods per host of each pod set); of {len(pending)} pending, "
        f"{sum(v.reasons_agree for v in pending)} for the same kind of reason, and of {len(topology)} "
        f"on topology {sum(v.text_agree for v in topology)} with Kueue's message word for word; "
        f"{sum(v.bypassed for v in verdicts)} left unevaluated by Kueue (an equivalent had failed); "
        f"{seconds:.0f} s on {threads} threads"
    )
