"""A scenario with preemption on the real Kueue (issue 35: R48, R50; T8), beside simulate.

The harness of simkueue_cluster.py creates each Workload and takes Kueue's first decision; a
preemption needs more. Here a scenario's runs are steps: each step creates one Workload and
follows the scenario until Kueue has settled it. While a Workload is pending "Pending the
preemption of N workload(s)" (v0.19.2 pkg/scheduler/scheduler.go `markPreemptionOutcome`),
every Workload Kueue evicts is recorded (its Evicted and Preempted conditions) and deleted, as
the owner of a preempted Job that is not run again would (minimalkueue runs no job
integration; without it an evicted Workload keeps its quota: pkg/controller/jobframework/
reconciler.go "handle eviction" is what releases it). A step is settled once the new Workload
has a decision, no preemption is under way and no Workload's outcome has changed for
QUIET_SECONDS (which also puts a second between admissions: Kueue orders candidates by the
QuotaReserved condition's time, kept to the second).

simulate decides each step in the same state: the runs admitted so far (their hosts, a second
apart in admission order), those still pending, and the step's run; a run it preempts is left
out of the later steps, as Kueue's victim is deleted. Each step's outcome of every run and
each step's victims are compared."""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.context.session import ProjectContext
from taugen.engines.admission.project import SimulateOptions, prepare, simulate_tree
from tests.realcluster.kube import Kube, Object
from tests.realcluster.simkueue_cluster import (
    BYPASS_SECONDS,
    DECIDE_SECONDS,
    MERGE,
    Scene,
    set_up,
    tear_down,
)
from tests.realcluster.simkueue_compare import Plan, kueue_pod_sets, plan, taugen_pod_sets
from tests.realcluster.simkueue_preempt_scenarios import PreemptScenario, step_set
from tests.realcluster.simkueue_workloads import Decision, decision, shape

QUIET_SECONDS = 1.5
PARKED = "parked"  # a LocalQueue no scenario has
PENDING_PREEMPTION = "Pending the preemption of"
UID = re.compile(r"Preempted to accommodate a workload \(UID: ([^,]+),")
HUMAN = re.compile(r" due to (.+?); preemptor path")
Outcome = tuple[object, ...]  # ("admitted", pods per host of each pod set), ("pending",), ("preempted",)


@dataclass(frozen=True)
class Step:
    """One run added, as simulate decides it."""

    run: str  # namespace/name
    plan: Plan  # the step's simulation as a plan (its scene holds every Workload of the set)
    outcomes: dict[str, Outcome]  # every run so far, preempted ones included
    victims: dict[str, tuple[tuple[str, str], ...]]  # preemptor -> (victim, reason) in this step
    words: dict[str, str]  # victim -> simulate's words for why


@dataclass(frozen=True)
class Eviction:
    """A Workload Kueue evicted, as its conditions say."""

    victim: str  # namespace/name, taugen's
    by: str  # the preemptor's namespace/name (from the UID in the message)
    evicted: tuple[str, str]  # the Evicted condition's reason and message
    preempted: tuple[str, str]  # the Preempted condition's reason and message


@dataclass(frozen=True)
class Played:
    """Kueue's side of one step."""

    outcomes: dict[str, Outcome]
    evictions: tuple[Eviction, ...]  # in this step


@dataclass(frozen=True)
class Preempted:
    name: str
    first: int  # how many steps are the runs admitted first
    steps: tuple[Step, ...]
    played: tuple[Played, ...]


def simulate_steps(project_file: Path, project: ProjectContext, scenario: PreemptScenario) -> list[Step]:
    """simulate's decision at each step, each on the state the steps before left (run names
    are unique in a scenario)."""
    runs = scenario.first + scenario.later
    admitted: dict[str, dict[str, str]] = {}  # name -> rank -> host, in admission order
    preempted: set[str] = set()  # namespace/name
    steps = []
    for index, run in enumerate(runs):
        waiting = [_name(r) for r in runs[:index] if _name(r) not in admitted and _key_of(r) not in preempted]
        found = step_set(project_file.parent, scenario, index, admitted, waiting)
        options = SimulateOptions(workloads=found, project_file=project_file, cluster=scenario.name)
        setup = prepare(options, project)
        step_plan = plan(setup, simulate_tree(setup), scenario.name)
        outcomes: dict[str, Outcome] = {key: ("preempted",) for key in preempted}
        victims, words = {}, {}
        for expected in step_plan.expected:
            result = expected.result
            name = result.key.split("/")[1]
            admitted_now = result.status == "admitted"
            outcomes[result.key] = (
                ("admitted", tuple(taugen_pod_sets(expected))) if admitted_now else (result.status,)
            )
            if result.victims:
                victims[result.key] = tuple(sorted((v.key, v.reason) for v in result.victims))
            if result.status == "preempted":
                words[result.key] = result.reason.split(": ", 1)[-1].rsplit(" (", 1)[0]
                preempted.add(result.key)
                admitted.pop(name, None)
            elif admitted_now and name not in admitted:
                admitted[name] = {str(i): h for i, h in enumerate(result.ranks) if h is not None}
        steps.append(Step(_key_of(run), step_plan, outcomes, victims, words))
    return steps


def _name(run: dict[str, Any]) -> str:
    name: str = run["metadata"]["name"]
    return name


def _key_of(run: dict[str, Any]) -> str:
    return f"{run['metadata']['namespace']}/{_name(run)}"


def play_scenario(
    kube: Kube, scenario: PreemptScenario, steps: Sequence[Step], alive: Callable[[], bool]
) -> Preempted:
    """Kueue's side: each step's Workload created, the scenario followed until it settles."""
    first = steps[0].plan.scene
    workloads = [_workload(step) for step in steps]
    scene = Scene(first.iso, first.nodes, first.objects, workloads)
    keys: dict[str, str] = {}  # UID -> taugen's namespace/name
    evicted: dict[str, Eviction] = {}
    played = []
    try:
        set_up(kube, scene, alive)
        for obj in workloads:
            if obj["metadata"]["name"] in scenario.parked:
                parked = copy.deepcopy(obj)
                parked["spec"]["queueName"] = PARKED
                keys[_create(kube, parked)] = _key(obj, scene)
        failed: dict[str, Decision] = {}  # shape -> a pending Workload's decision
        for index, obj in enumerate(workloads):
            held = None
            if obj["metadata"]["name"] in scenario.parked:
                held = _unpark(kube, obj)
            else:
                keys[_create(kube, obj)] = _key(obj, scene)
            equivalent = failed.get(shape(obj))
            before = set(evicted)
            outcomes = _settle(
                kube, workloads[: index + 1], scene, steps[index], keys, evicted, alive, equivalent, held
            )
            for w in workloads[: index + 1]:
                got = decision(kube.get(w))
                if got is not None and got.status == "pending":
                    failed[shape(w)] = got
            played.append(Played(outcomes, tuple(e for k, e in evicted.items() if k not in before)))
        return Preempted(scenario.name, len(scenario.first), tuple(steps), tuple(played))
    finally:
        tear_down(kube, scene, alive)


def _unpark(kube: Kube, obj: Object) -> str:
    """Move a parked Workload to its LocalQueue; the message it had while parked."""
    held = (decision(kube.get(obj)) or Decision("pending")).message
    patch = {"spec": {"queueName": obj["spec"]["queueName"]}}
    Kube.expect(kube.http.patch(kube.object_path(obj), content=json.dumps(patch), headers=MERGE))
    return held


def _workload(step: Step) -> Object:
    name = step.run.split("/")[1]
    return next(w for w in step.plan.scene.workloads if w["metadata"]["name"] == name)


def _key(obj: Object, scene: Scene) -> str:
    return f"{scene.iso.unprefixed(obj['metadata']['namespace'])}/{obj['metadata']['name']}"


def _create(kube: Kube, obj: Object) -> str:
    uid: str = Kube.expect(kube.create(obj))["metadata"]["uid"]
    return uid


def _settle(
    kube: Kube,
    workloads: Sequence[Object],
    scene: Scene,
    step: Step,
    keys: dict[str, str],
    evicted: dict[str, Eviction],
    alive: Callable[[], bool],
    equivalent: Decision | None,
    held: str | None = None,
) -> dict[str, Outcome]:
    """Every Workload's outcome once the step has settled (see the module's doc); `equivalent`:
    an earlier pending Workload of the new one's shape, so that it may get no condition at all;
    `held`: the new one was parked, with this message (Kueue has not seen it until it changes)."""
    began = changed = time.monotonic()
    last: dict[str, Outcome] = {}
    new = workloads[-1]
    while True:
        if _evict(kube, workloads, scene, keys, evicted):
            changed = time.monotonic()
        decisions = {
            _key(w, scene): decision(kube.get(w)) for w in workloads if _key(w, scene) not in evicted
        }
        outcomes: dict[str, Outcome] = {
            k: ("preempted",) for k in evicted if k in {_key(w, scene) for w in workloads}
        }
        for key, got in decisions.items():
            outcomes[key] = _outcome(got, step.plan)
        now = time.monotonic()
        if outcomes != last or any(
            d is not None and PENDING_PREEMPTION in d.message for d in decisions.values()
        ):
            last, changed = outcomes, now
        mine = decisions.get(_key(new, scene))
        decided = (mine is not None and (held is None or mine.message != held)) or (
            equivalent is not None and now - began > BYPASS_SECONDS
        )
        if decided and now - changed > QUIET_SECONDS:
            return {k: ("pending",) if v == ("undecided",) else v for k, v in outcomes.items()}
        if not alive() or now - began > DECIDE_SECONDS:
            raise AssertionError(f"{step.run}: not settled after {now - began:.0f} s: {outcomes}")
        time.sleep(0.1)


def _outcome(got: Decision | None, found: Plan) -> Outcome:
    if got is None:
        return ("undecided",)
    if got.status == "admitted":
        return ("admitted", tuple(kueue_pod_sets(got, found)))
    return ("pending",)


def _evict(
    kube: Kube, workloads: Sequence[Object], scene: Scene, keys: dict[str, str], evicted: dict[str, Eviction]
) -> bool:
    """Record and delete every Workload that Kueue evicted; whether there was one."""
    found = False
    for obj in workloads:
        key = _key(obj, scene)
        if key in evicted:
            continue
        live = kube.get(obj)
        conditions = {c["type"]: c for c in ((live or {}).get("status") or {}).get("conditions", [])}
        condition = conditions.get("Evicted")
        if condition is None or condition["status"] != "True":
            continue
        preempted = conditions.get("Preempted") or {}
        match = UID.search(condition.get("message", ""))
        by = keys.get(match.group(1), match.group(1)) if match else ""
        evicted[key] = Eviction(
            key,
            by,
            (condition["reason"], condition.get("message", "")),
            (preempted.get("reason", ""), preempted.get("message", "")),
        )
        answer = kube.delete(obj)
        if answer.status_code != 404:
            Kube.expect(answer)
        found = True
    return found


def kueue_victims(played: Played) -> dict[str, tuple[tuple[str, str], ...]]:
    """Preemptor -> (victim, the Preempted condition's reason) of one step."""
    found: dict[str, list[tuple[str, str]]] = {}
    for e in played.evictions:
        found.setdefault(e.by, []).append((e.victim, e.preempted[0]))
    return {k: tuple(sorted(v)) for k, v in found.items()}


def victims_of(found: Preempted, kueue: bool) -> dict[str, tuple[str, str]]:
    """Every victim of a scenario (its name) with its preemptor and reason, as Kueue (`kueue`)
    or taugen decided."""
    victims: dict[str, tuple[str, str]] = {}
    for step, played in zip(found.steps, found.played, strict=True):
        for preemptor, pairs in (kueue_victims(played) if kueue else step.victims).items():
            for victim, reason in pairs:
                victims[victim.split("/")[1]] = (preemptor.split("/")[1], reason)
    return victims


def last_outcomes(found: Preempted, kueue: bool) -> dict[str, Outcome]:
    """Each run's outcome (by its name) after the scenario's last step."""
    outcomes = found.played[-1].outcomes if kueue else found.steps[-1].outcomes
    return {k.split("/")[1]: o for k, o in outcomes.items()}


def steps_agreeing(found: Preempted) -> int:
    """How many steps agree in every run's outcome and the step's victims."""
    return sum(
        (s.outcomes, s.victims) == (k.outcomes, kueue_victims(k))
        for s, k in zip(found.steps, found.played, strict=True)
    )


def reason_words(played: Sequence[Preempted]) -> tuple[list[str | None], list[str]]:
    """Every eviction's reason in taugen's words and in Kueue's, in the same order."""
    steps = [(s, k) for p in played for s, k in zip(p.steps, p.played, strict=True)]
    return [s.words.get(e.victim) for s, k in steps for e in k.evictions], [
        kueue_words(e) for _, k in steps for e in k.evictions
    ]


def kueue_words(eviction: Eviction) -> str:
    """Kueue's words for why, from the Preempted condition's message."""
    match = HUMAN.search(eviction.preempted[1])
    return match.group(1) if match else eviction.preempted[1]


def report(found: Sequence[Preempted]) -> str:
    """Each step of each scenario: every run's outcome and the step's victims, both ways,
    flagged where they differ (DIFF, VICTIMS, WORDS); then Kueue's conditions word for word."""
    lines = []
    for scenario in found:
        for step, played in zip(scenario.steps, scenario.played, strict=True):
            words = {e.victim: kueue_words(e) for e in played.evictions}
            flags = [
                f
                for f, bad in (
                    ("DIFF", step.outcomes != played.outcomes),
                    ("VICTIMS", step.victims != kueue_victims(played)),
                    ("WORDS", any(step.words.get(k) != w for k, w in words.items())),
                )
                if bad
            ]
            lines += [
                f"{scenario.name} + {step.run} {' '.join(flags)}".rstrip(),
                f"  taugen: {_line(step.outcomes)} victims {step.victims}",
                f"  Kueue:  {_line(played.outcomes)} victims {kueue_victims(played)}",
            ]
            lines += [
                f"  Kueue evicted {e.victim}: Evicted {e.evicted[0]}; "
                f"Preempted {e.preempted[0]}: {e.preempted[1]}"
                for e in played.evictions
            ]
    return "\n".join(lines) + "\n"


def _line(outcomes: dict[str, Outcome]) -> str:
    return ", ".join(f"{k.split('/')[1]} {' '.join(map(str, v))}" for k, v in sorted(outcomes.items()))
