"""taugen simulate's answer beside Kueue's (issue 31 item 5): a scene from a simulation (the
same runs, rendered as `taugen render` writes them, in the simulation's admission order), and
each run's outcome compared: admitted or pending, the flavor, and the pods per host of every
pod set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taugen.engines.admission.model import RunResult, SimRun
from taugen.engines.admission.project import Setup, Simulation
from taugen.engines.admission.workloads import resolve_runs
from taugen.engines.runs.render import manifests
from taugen.schedulers.kueue.compile import CPU_FLAVOR
from tests.realcluster.simkueue_cluster import BYPASSED, Outcome, Scene
from tests.realcluster.simkueue_objects import HOSTNAME, Isolation, isolate, node_specs, tree_objects
from tests.realcluster.simkueue_workloads import Decision, workload

LEAD = "couldn't assign flavors to pod set "


@dataclass(frozen=True)
class Expected:
    result: RunResult
    run: SimRun


@dataclass(frozen=True)
class Plan:
    scene: Scene
    expected: tuple[Expected, ...]  # one per Workload, in the scene's order
    hosts: Mapping[str, str]  # the real hostname label -> taugen's node name


def plan(setup: Setup, simulation: Simulation, scenario: str) -> Plan:
    iso = Isolation(scenario)
    objects = tree_objects(simulation.tree)
    priorities = {o["metadata"]["name"]: o["value"] for o in objects if o["kind"] == "WorkloadPriorityClass"}
    rendered = {
        f"{c.run.metadata.namespace}/{c.run.metadata.name}": manifests(c)[0]
        for c in resolve_runs(setup.workloads, setup.state)
    }
    runs = {r.key: r for r in simulation.source.runs}
    expected = tuple(Expected(r, runs[r.key]) for r in simulation.result.runs)
    workloads = [workload(rendered[e.result.key], iso, priorities) for e in expected]
    nodes = node_specs(setup.state.resolved.nodes, simulation.tree)
    scene = Scene(iso, nodes, [isolate(o, iso) for o in objects], workloads)
    return Plan(scene, expected, {iso.name(n.labels[HOSTNAME]): n.name for n in nodes})


@dataclass(frozen=True)
class Verdict:
    key: str
    status: str  # taugen's: admitted / pending
    mode: str  # the first pod set's: required / preferred / unconstrained, or cpu (no TAS flavor)
    hosts: int  # hosts taugen placed the run on
    reason: str  # taugen's kind of reason when pending: quota / topology / other
    taugen: str  # its answer in words: where, or why not
    kueue: str
    agree: bool
    reasons_agree: bool  # both pending for the same kind of reason
    text_agree: bool  # both pending on topology with Kueue's own words (taugen ends with them)
    stable: bool  # Kueue's outcome once the scenario's last run was decided is its first one
    bypassed: bool  # Kueue left it pending unevaluated (an equivalent had failed)


def compare(found: Plan, outcome: Outcome) -> list[Verdict]:
    triples = zip(found.expected, outcome.first, outcome.decisions, strict=True)
    return [_verdict(e, first, final, found) for e, first, final in triples]


def _verdict(expected: Expected, got: Decision, final: Decision, found: Plan) -> Verdict:
    result, iso = expected.result, found.scene.iso
    want = taugen_pod_sets(expected)
    have = kueue_pod_sets(got, found)
    flavor = iso.unprefixed(got.flavor) if got.flavor else None
    both_admitted = result.status == got.status == "admitted"
    agree = (result.flavor, want) == (flavor, have) if both_admitted else result.status == got.status
    taugen = f"{result.status} {result.flavor} {want}" if result.status == "admitted" else result.status
    kueue = f"{got.status} {flavor} {have}" if got.status == "admitted" else got.status
    if not both_admitted:
        taugen, kueue = f"{taugen}: {result.reason}", f"{kueue}: {got.message}"
    reason = kind(result.reason) if result.status == "pending" else ""
    both_pending = result.status == got.status == "pending"
    words = kueue_words(got.message, iso)
    return Verdict(
        key=result.key,
        status=result.status,
        mode="cpu" if expected.run.flavor == CPU_FLAVOR else expected.run.mode,
        hosts=len(result.hosts()),
        reason=reason,
        taugen=taugen,
        kueue=kueue,
        agree=agree,
        reasons_agree=not both_pending or reason == kind(got.message),
        text_agree=both_pending and reason == "topology" and result.reason.endswith(f": {words}"),
        stable=got.same(final),
        bypassed=got.bypassed,
    )


def kueue_words(message: str, iso: Isolation) -> str:
    """Kueue's TAS message as taugen words it: without the pod set's lead-in, and with taugen's
    names (the scenario's prefix gone). An unevaluated workload's is its equivalent's."""
    text = message.split(f"{BYPASSED}: ", 1)[-1]
    if text.startswith(LEAD):
        text = text.split(": ", 1)[1]
    return text.replace(f'"{iso.scenario}-', '"')


def kueue_pod_sets(got: Decision, found: Plan) -> list[dict[str, int]]:
    """Pods per host of each pod set Kueue admitted, by taugen's node names."""
    return [{found.hosts.get(d[-1], d[-1]): n for d, n in ps.items()} for ps in got.pod_sets]


def taugen_pod_sets(expected: Expected) -> list[dict[str, int]]:
    """Pods per host of each pod set; {} for one no topology places (CPU-only: kube-scheduler)."""
    found = []
    for index, pod_set in enumerate(expected.run.pod_sets()):
        first = expected.run.first_rank(index)
        hosts: dict[str, int] = {}
        for host in expected.result.ranks[first : first + pod_set.count]:
            if host is not None:
                hosts[host] = hosts.get(host, 0) + 1
        found.append(hosts)
    return found


def kind(reason: str) -> str:
    """taugen's reasons start with what held the run back; Kueue's message says it in words."""
    text = reason.lower()
    if text.startswith("quota") or "insufficient quota" in text or "insufficient unused quota" in text:
        return "quota"
    if text.startswith("topology") or "topology" in text:
        return "topology"
    return "other"
