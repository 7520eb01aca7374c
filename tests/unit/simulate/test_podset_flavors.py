"""R47, R52: Kueue v0.19.2 assigns a flavor per pod set (flavorassigner.go assignFlavors: the
pod sets in order, each on top of the quota the earlier ones of the same workload take of a
flavor), checks topology after, and keeps each workload's LastTriedFlavorIdx between cycles
(scan.py): a run whose flavor's topology cannot place it tries the next flavor in the next cycle."""

from __future__ import annotations

from dataclasses import replace

from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import (
    FlavorTotal,
    RunResult,
    SimFlavor,
    SimNode,
    SimPod,
    SimPodSet,
    SimRun,
)
from taugen.engines.admission.scan import ScanProgress
from tests.unit.simulate.engine_helpers import GPU, SLOT, cluster, run

H200, H100 = "taugrid-h200", "taugrid-h100"
KEY = "team-a/js"


def _node(name: str, flavor: str) -> SimNode:
    return SimNode(name, True, flavor, ("s1", "r1", name), {"cpu": 96_000, GPU: 8, SLOT: 1})


NODES = [_node("a1", H200), _node("a2", H200), _node("b1", H100), _node("b2", H100)]


def _flavors(h200: int, h100: int = 16) -> tuple[SimFlavor, ...]:
    base = {"cpu": 10**9, SLOT: 10**6}
    return (SimFlavor(H200, {**base, GPU: h200}, tas=True), SimFlavor(H100, {**base, GPU: h100}, tas=True))


def _jobset(head: int, workers: int) -> SimRun:
    more = (SimPodSet("workers", workers, {GPU: 8}, "unconstrained", None, gpus=8),)
    return replace(
        run("js", head, mode="unconstrained", level=None, flavor=H200),
        name="head",
        more=more,
        flavors=(H200, H100),
    )


def test_pod_sets_of_one_run_land_on_two_flavors() -> None:
    """16 H200 GPUs of quota: `head` takes them; `workers` on top of it would need 32 of H200,
    so Kueue gives it the next flavor, H100. The result names each pod set's flavor."""
    result = simulate(cluster(NODES, [_jobset(2, 2)], flavors=_flavors(16)))
    assert result.runs == (
        RunResult(KEY, "admitted", H200, ranks=("a1", "a2", "b1", "b2"), pod_set_flavors=(H200, H100)),
    )
    assert result.totals == (FlavorTotal(H100, 16, 16, 0), FlavorTotal(H200, 16, 16, 0))


def test_the_quota_is_counted_across_the_pod_sets_of_the_run() -> None:
    """`head` and `workers` of one pod each: with 16 H200 GPUs both fit on H200 (8 + 8); with 12,
    `workers` on top of `head` would need 16 of H200, and takes H100."""
    both = simulate(cluster(NODES, [_jobset(1, 1)], flavors=_flavors(16)))
    assert both.runs == (RunResult(KEY, "admitted", H200, ranks=("a1", "a2"), pod_set_flavors=(H200, H200)),)
    split = simulate(cluster(NODES, [_jobset(1, 1)], flavors=_flavors(12)))
    assert split.runs == (RunResult(KEY, "admitted", H200, ranks=("a1", "b1"), pod_set_flavors=(H200, H100)),)


def test_topology_is_checked_after_the_flavors_and_the_next_cycle_scans_on() -> None:
    """24 GPUs of quota in each flavor: both pod sets fit H200's quota, but its two hosts hold
    two of the three pods. Cycle 1 leaves the run pending on H200 with that pod set's TAS message;
    cycle 2 scans from H100 (LastTriedFlavorIdx), whose two hosts cannot hold them either; the
    scan reached the last flavor, so the run waits (inadmissible) and the cycles stop."""
    source = cluster(NODES, [_jobset(1, 2)], flavors=_flavors(24, 24))
    tas = (
        "topology: pod set workers: no set of hosts holds 2 pods: "
        'topology "taugrid-gpu-topology" allows to fit only 1 out of 2 pod(s). '
        'Total nodes: 2; excluded: resource "nvidia.com/gpu": 1'
    )
    one = simulate(source, cycles=1)
    last_try = f"not reached: the simulation stopped after 1 scheduling cycle(s); its last try in them: {tas}"
    assert one.runs == (RunResult(KEY, "pending", H200, last_try, pod_set_flavors=(H200, H200)),)
    every = simulate(source)
    assert every.runs == (RunResult(KEY, "pending", H100, tas, pod_set_flavors=(H100, H100)),)
    assert (every.cycles, every.cut_off) == (2, ())


def test_a_flavor_whose_topology_cannot_place_the_run_yields_to_the_next_one_a_cycle_later() -> None:
    """The H200 hosts are busy: H200's quota fits, its topology does not. Cycle 1 leaves the run
    pending on H200 (Kueue's assigner chose it by quota); cycle 2 scans from H100 and admits it."""
    busy = tuple(SimPod(n.name, {GPU: 8}) for n in NODES[:2])
    solo = replace(run("solo", 1, mode="unconstrained", level=None, flavor=H200), flavors=(H200, H100))
    source = cluster(NODES, [solo], flavors=_flavors(16), running=busy)
    first = simulate(source, cycles=1)
    assert (first.runs[0].status, first.runs[0].flavor, first.cut_off) == ("pending", H200, ("team-a/solo",))
    assert simulate(source).runs == (RunResult("team-a/solo", "admitted", H100, ranks=("b1",)),)


def test_the_scan_progress_kept_and_dropped_as_kueue_does() -> None:
    """Kept into the next cycle; dropped when older than that and a workload left its queue."""
    scan = ScanProgress()
    scan.record("r", "q", (), (0, -1), cycle=1)
    assert (scan.start("r", "q", 2), scan.flavors_left("r")) == ((1, 0), True)
    scan.remove_from("q")
    assert scan.start("r", "q", 2) == (1, 0)  # the previous cycle's: never outdated
    assert scan.start("r", "q", 3) == ()  # older, and the queue's generation moved on
    scan.record("r", "q", (), (-1,), cycle=3)
    assert (scan.start("r", "q", 9), scan.flavors_left("r")) == ((0,), False)
    scan.forget("r")
    assert scan.start("r", "q", 4) == ()


def test_a_scan_that_goes_round_stops_being_retried() -> None:
    """The same scan (from the same start to the same flavors) a second time: no more retries."""
    scan = ScanProgress()
    scan.record("r", "q", (), (0, -1), cycle=1)
    scan.record("r", "q", (1, 0), (-1, 0), cycle=2)
    scan.record("r", "q", (0, 1), (0, -1), cycle=3)
    assert scan.flavors_left("r")
    scan.record("r", "q", (1, 0), (-1, 0), cycle=4)
    assert not scan.flavors_left("r")
