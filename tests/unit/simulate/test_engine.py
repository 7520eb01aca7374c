"""Admission (S2), placement on the live cluster (S3), ranks (S4) and replacements (S5)."""

from __future__ import annotations

import random

from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import RunResult, SimPod
from tests.unit.simulate.engine_helpers import GPU, SLOT, cluster, flavor, node, run

KEY = "team-a/"


def test_best_effort_fifo_skips_a_big_run_that_does_not_fit() -> None:
    """S2: a large high-priority run that does not fit must not block a small one behind it."""
    big = run("big", workers=3, priority=1200)
    small = run("small", workers=1, created="2026-11-29T11:00:00Z")
    result = simulate(cluster([node("x1"), node("x2")], [small, big]))
    reason = (
        'topology: no site domain holds 3 pods: topology "taugrid-gpu-topology" allows to fit only 2 '
        "out of 3 pod(s)"
    )
    assert result.runs == (
        RunResult(KEY + "big", "pending", "taugrid-h200", reason),
        RunResult(KEY + "small", "admitted", "taugrid-h200", ranks=("x1",)),
    )


def test_quota_exhaustion_names_the_resource() -> None:
    """S2: quota per flavor and resource; the second run overflows cpu, not GPUs."""
    runs = [
        run("a", per_pod={GPU: 8, "cpu": 60_000}),
        run("b", per_pod={GPU: 8, "cpu": 60_000}, created="2026-11-29T10:05:00Z"),
    ]
    result = simulate(cluster([node("x1"), node("x2")], runs, flavors=(flavor(cpu=100_000),)))
    assert [r.status for r in result.runs] == ["admitted", "pending"]
    assert result.runs[1].reason == (
        "quota: cpu in flavor taugrid-h200: the run requests 60, 40 of the nominal 100 is unused"
    )


def test_slot_quota_exhaustion_for_torchrun() -> None:
    """S2, R27: every torchrun rank takes one host slot; slots run out before GPUs do."""
    per_pod = {GPU: 4, SLOT: 1}
    runs = [run("a", 2, per_pod=per_pod), run("b", 2, per_pod=per_pod, created="2026-11-29T10:05:00Z")]
    result = simulate(cluster([node(f"x{i}") for i in range(4)], runs, flavors=(flavor(slot=3),)))
    assert result.runs[1] == RunResult(
        KEY + "b",
        "pending",
        "taugrid-h200",
        f"quota: {SLOT} in flavor taugrid-h200: the run requests 2, 1 of the nominal 3 is unused",
    )


def test_not_ready_nodes_are_excluded() -> None:
    """S3: only Ready nodes hold pods (Kueue drops the others from the tree)."""
    result = simulate(cluster([node("x1"), node("x2", ready=False)], [run("a", 2)]))
    assert result.runs[0].status == "pending"
    assert result.runs[0].reason.endswith("allows to fit only 1 out of 2 pod(s)")


def test_running_pods_take_capacity() -> None:
    """S3: capacity = allocatable - running: x1 is full, so the run goes to x2."""
    busy = SimPod("x1", {GPU: 8})
    result = simulate(cluster([node("x1"), node("x2")], [run("a")], running=(busy,)))
    assert result.runs[0].ranks == ("x2",)


def test_ranks_follow_the_assignment_in_path_order() -> None:
    """S4: pod i goes to the hosts in path order, each taking its count consecutively."""
    nodes = [node("x2", "r1"), node("x1", "r2"), node("x3", "r1")]
    result = simulate(cluster(nodes, [run("a", 5, per_pod={GPU: 4})]))
    assert result.runs[0].ranks == ("x2", "x2", "x3", "x3", "x1")


def test_seed_002_replacement_goes_to_the_free_host() -> None:
    """S5, seed 002 (Kueue #9210): rank 0 planned on x3, rank 1 already running on x3, x1 free."""
    planned = run("r1", 2, plan={0: "x3", 1: "x1"})
    running = (SimPod("x3", {GPU: 8}, KEY + "r1", 1),)
    result = simulate(cluster([node("x1"), node("x3")], [planned], running=running))
    assert result.runs == (RunResult(KEY + "r1", "admitted", "taugrid-h200", "", ("x1", "x3"), (0,)),)


def test_node_down_replaces_inside_the_required_domain() -> None:
    """S5: the lost rank moves to a free host of the same rack, never to another rack."""
    nodes = [node("x1"), node("x2"), node("x3"), node("y1", "r2")]
    result = simulate(cluster(nodes, [run("a", 2, level="rack")], down=("x1",)))
    assert result.runs[0] == RunResult(KEY + "a", "admitted", "taugrid-h200", "", ("x3", "x2"), (0,))


def test_node_down_evicts_when_the_domain_is_full() -> None:
    """S5: no free Ready host in the required rack: the run is evicted and its capacity freed."""
    nodes = [node("x1"), node("x2"), node("y1", "r2")]
    filler = SimPod("x2", {GPU: 8})
    result = simulate(cluster(nodes, [run("a", 1, level="rack")], running=(filler,), down=("x1",)))
    assert result.runs[0] == RunResult(
        KEY + "a",
        "evicted",
        "taugrid-h200",
        "rank 0 (lost on x1) found no free Ready host in s1/r1: evicted and requeued",
    )
    assert result.totals[0].free == 8  # y1 only: x1 is down, x2 is full


def test_same_answer_whatever_the_input_order() -> None:
    """Determinism: nodes, runs and running pods in any order give the same result."""
    nodes = [node(f"x{i}", f"r{i % 3}") for i in range(9)]
    runs = [run(f"j{i}", 1 + i % 3, level="rack", created=f"2026-11-29T10:0{i % 4}:00Z") for i in range(8)]
    running = [SimPod(f"x{i}", {GPU: 4}) for i in range(0, 9, 2)]
    first = simulate(cluster(nodes, runs, running=tuple(running)))
    for seed in range(5):
        rng = random.Random(seed)
        for items in (nodes, runs, running):
            rng.shuffle(items)
        assert simulate(cluster(nodes, runs, running=tuple(running))) == first


def test_a_resource_the_queue_does_not_cover_keeps_the_run_pending() -> None:
    result = simulate(cluster([node("x1")], [run("a", per_pod={GPU: 8, "example.com/fpga": 1})]))
    assert (
        result.runs[0].reason
        == "quota: example.com/fpga is not covered by the ClusterQueue (flavor taugrid-h200)"
    )


def test_cycles_stop_after_the_limit_and_name_the_runs_left_queued() -> None:
    """R52: one ClusterQueue, one head a cycle; with --cycles 1 the second run is never reached."""
    runs = [run("a"), run("b", created="2026-11-29T11:00:00Z")]
    limited = simulate(cluster([node("x1"), node("x2")], runs), cycles=1)
    stopped = "not reached: the simulation stopped after 1 scheduling cycle(s)"
    assert limited.runs == (
        RunResult(KEY + "a", "admitted", "taugrid-h200", ranks=("x1",)),
        RunResult(KEY + "b", "pending", "taugrid-h200", stopped),
    )
    assert (limited.cycles, limited.limit, limited.cut_off) == (1, 1, (KEY + "b",))
    whole = simulate(cluster([node("x1"), node("x2")], runs))
    assert (whole.cycles, whole.limit, whole.cut_off) == (2, None, ())
    assert [r.status for r in whole.runs] == ["admitted", "admitted"]
