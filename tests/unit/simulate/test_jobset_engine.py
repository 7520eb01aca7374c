"""K6: a run of several pod sets (a JobSet) is one Kueue workload: quota for all pod sets at
once, the pod sets placed in order on what the earlier ones leave, all or nothing (S3, S5)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import FlavorTotal, RunResult, SimPodSet, SimRun
from taugen.engines.placement.tree import FilterTaint, FilterToleration
from tests.unit.simulate.engine_helpers import FLAVOR, GPU, cluster, flavor, node, run

KEY = "team-a/"
NODES = [node("x1"), node("x2"), node("y1", "r2")]


def _jobset(first: str, **fields: Any) -> SimRun:
    """A run named js whose first pod set is `first`."""
    return replace(run("js", **fields), name=first)


def _head_and_workers() -> SimRun:
    return _jobset("head", level="kubernetes.io/hostname", more=(_workers(),))


def _workers(count: int = 2, level: str = "rack") -> SimPodSet:
    return SimPodSet("workers", count, {GPU: 8}, "required", level, gpus=8)


def test_admitted_across_pod_sets() -> None:
    """The CPU launcher prefers a host and takes x1; the workers' rack r1 still holds both."""
    launcher = {"count": 1, "per_pod": {"cpu": 2000}, "mode": "preferred", "level": "kubernetes.io/hostname"}
    jobset = _jobset("launcher", gpus=0, more=(_workers(),), **launcher)
    result = simulate(cluster(NODES, [jobset]))
    assert result.runs == (RunResult(KEY + "js", "admitted", FLAVOR, ranks=("x1", "x1", "x2")),)
    assert result.totals == (FlavorTotal(FLAVOR, 16, 16, 8),)


def test_the_second_pod_set_sees_what_the_first_takes() -> None:
    """Pod set `head` takes x1; `workers` finds one free host in r1, none holds both: the run is
    pending for the pod set that failed, with Kueue's TAS message, and nothing is taken."""
    head = {"count": 1, "level": "kubernetes.io/hostname"}
    jobset = _jobset("head", more=(_workers(),), **head)
    after = run("after", 3, created="2026-11-29T11:00:00Z")  # every host: admitted only if js holds none
    result = simulate(cluster(NODES, [jobset, after]))
    message = (
        "topology: pod set workers: no rack domain holds 2 pods: "
        'topology "taugrid-gpu-topology" allows to fit only 1 out of 2 pod(s). '
        'Total nodes: 3; excluded: resource "nvidia.com/gpu": 1'
    )
    assert result.runs == (
        RunResult(KEY + "js", "pending", FLAVOR, message),
        RunResult(KEY + "after", "admitted", FLAVOR, ranks=("x1", "x2", "y1")),
    )


def test_a_pod_set_of_count_zero_gets_no_hosts() -> None:
    """No TopologyAssignment for it (Kueue: Count(0)); the launcher takes the smallest rack's host."""
    jobset = _jobset("launcher", level="rack", more=(_workers(0),))
    result = simulate(cluster(NODES, [jobset]))
    assert result.runs == (RunResult(KEY + "js", "admitted", FLAVOR, ranks=("y1",)),)


def test_quota_is_for_every_pod_set_at_once() -> None:
    jobset = _jobset("head", more=(_workers(),))
    source = cluster(NODES, [jobset], flavors=(flavor(gpu=16),))
    (found,) = simulate(source).runs
    assert (found.status, found.reason) == (
        "pending",
        "quota: nvidia.com/gpu in flavor taugrid-h200: the run requests 24, 16 of the nominal 16 is unused",
    )


def test_node_down_replaces_within_the_pod_sets_own_domain() -> None:
    """S5: head takes x1, the workers x2 and x3 of rack r1; the worker lost on x2 moves inside
    its own pod set's rack (x4), never to y1 in r2."""
    nodes = [*NODES, node("x3"), node("x4")]
    (found,) = simulate(cluster(nodes, [_head_and_workers()], down=("x2",))).runs
    assert found == RunResult(KEY + "js", "admitted", FLAVOR, "", ("x1", "x4", "x3"), (1,))


def test_node_down_evicts_the_whole_run_naming_the_pod_set() -> None:
    """S5: r1 has no free host left for the lost worker: the whole JobSet is evicted."""
    nodes = [*NODES, node("x3")]
    (found,) = simulate(cluster(nodes, [_head_and_workers()], down=("x2",))).runs
    reason = "rank 1 of pod set workers (lost on x2) found no free Ready host in s1/r1: evicted and requeued"
    assert found == RunResult(KEY + "js", "evicted", FLAVOR, reason)


def test_every_pod_set_keeps_off_a_node_whose_taint_the_run_does_not_tolerate() -> None:
    """Kueue's TAS filters each pod set's nodes by the pod's tolerations and the flavor's: a
    maintenance taint on x2 leaves the workers pending although r1 has the room without it;
    the flavor tolerating it admits them there."""
    tainted = replace(node("x2"), taints=(FilterTaint("maintenance", "true", "NoSchedule"),))
    nodes = [node("x1"), tainted, node("x3"), node("y1", "r2")]
    head = {"count": 1, "level": "kubernetes.io/hostname"}
    (found,) = simulate(cluster(nodes, [_jobset("head", more=(_workers(),), **head)])).runs
    assert (found.status, found.reason) == (
        "pending",
        "topology: pod set workers: no rack domain holds 2 pods: "
        'topology "taugrid-gpu-topology" allows to fit only 1 out of 2 pod(s). '
        'Total nodes: 4; excluded: resource "nvidia.com/gpu": 1, taint "maintenance=true:NoSchedule": 1',
    )
    tolerant = replace(flavor(), tolerations=(FilterToleration("maintenance", None, None),))
    jobset = _jobset("head", more=(_workers(),), **head)
    (found,) = simulate(cluster(nodes, [jobset], flavors=(tolerant,))).runs
    assert found == RunResult(KEY + "js", "admitted", FLAVOR, ranks=("x1", "x2", "x3"))
