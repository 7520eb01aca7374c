"""T8 on the engine: quota per ClusterQueue and cohort, borrowing and lending limits, and
classical preemption that names its victims, on TAS hosts (whole results compared)."""

from __future__ import annotations

from typing import Any

from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import RunResult, Victim
from taugen.engines.placement.tree import HOSTNAME
from taugen.schedulers.kueue.quota_model import PreemptionPolicy, Quota, SimQueue
from tests.unit.simulate.engine_helpers import FLAVOR, GPU, cluster, node, run

T2 = PreemptionPolicy("Any", "LowerPriority", None, "LowerPriority")  # what T2 compiles
NODES = [node(f"n{i}") for i in range(1, 5)]  # 4 hosts, 32 GPUs in one rack


def queue(name: str, gpus: int, **limits: Any) -> SimQueue:
    return SimQueue(name, {(FLAVOR, GPU): Quota(gpus, **limits)}, "taugrid", T2)


def test_a_tenant_borrows_the_cohort_s_unused_quota() -> None:
    queues = (queue("team-a", 16), queue("team-b", 8), queue("shared", 8))
    wide = run("wide", 3, key="team-b/wide", queue="team-b", level=None, mode="unconstrained")
    result = simulate(cluster(NODES, [wide], queues=queues))
    assert result.runs == (RunResult("team-b/wide", "admitted", FLAVOR, ranks=("n1", "n2", "n3")),)
    assert result.preemption


def test_a_guaranteed_tenant_reclaims_its_quota_from_a_borrower() -> None:
    queues = (queue("team-a", 16), queue("team-b", 8), queue("shared", 8))
    borrower = run(
        "wide", 3, key="team-b/wide", queue="team-b", plan={0: "n1", 1: "n2", 2: "n3"}, priority=1200
    )
    owner = run("pretrain", 2, queue="team-a", created="2026-11-29T11:00:00Z")
    result = simulate(cluster(NODES, [borrower, owner], queues=queues))
    assert result.runs == (
        RunResult(
            "team-b/wide",
            "preempted",
            FLAVOR,
            "preempted by team-a/pretrain: reclamation within the cohort (InCohortReclamation)",
        ),
        RunResult(
            "team-a/pretrain",
            "admitted",
            FLAVOR,
            ranks=("n1", "n2"),
            victims=(Victim("team-b/wide", "InCohortReclamation"),),
        ),
    )


def test_a_lending_limit_keeps_the_guarantee_from_borrowers() -> None:
    queues = (queue("team-a", 16, lending_limit=0), queue("team-b", 8), queue("shared", 8))
    wide = run("wide", 3, key="team-b/wide", queue="team-b", level=None, mode="unconstrained")
    (result,) = simulate(cluster(NODES, [wide], queues=queues)).runs
    assert result == RunResult(
        "team-b/wide",
        "pending",
        FLAVOR,
        "quota: nvidia.com/gpu in flavor taugrid-h200: the run requests 24, more than ClusterQueue "
        "team-b (nominal 8, cohort taugrid) can ever use: 16 with borrowing",
    )


def test_higher_priority_preempts_the_newest_lower_priority_run_of_its_queue() -> None:
    queues = (queue("team-a", 16, borrowing_limit=0), queue("shared", 16))
    older = run("older", 1, queue="team-a", plan={0: "n1"}, created="2026-11-29T08:00:00Z")
    newer = run("newer", 1, queue="team-a", plan={0: "n2"}, created="2026-11-29T09:00:00Z")
    urgent = run("urgent", 1, queue="team-a", priority=1200, created="2026-11-29T12:00:00Z")
    result = simulate(cluster(NODES, [older, newer, urgent], queues=queues))
    assert result.runs == (
        RunResult(
            "team-a/urgent",
            "admitted",
            FLAVOR,
            ranks=("n2",),
            victims=(Victim("team-a/newer", "InClusterQueue"),),
        ),
        RunResult("team-a/older", "admitted", FLAVOR, ranks=("n1",), replaced=(0,)),
        RunResult(
            "team-a/newer",
            "preempted",
            FLAVOR,
            "preempted by team-a/urgent: prioritization in the ClusterQueue (InClusterQueue)",
        ),
    )


def test_no_victim_of_equal_priority_keeps_the_run_pending_with_its_reason() -> None:
    queues = (queue("team-a", 8), queue("team-b", 8, borrowing_limit=0))
    held = run("held", 1, queue="team-a", plan={0: "n1"})
    waiting = run("waiting", 2, queue="team-a", created="2026-11-29T12:00:00Z")
    result = simulate(cluster(NODES, [held, waiting], queues=queues))
    assert result.runs[1] == RunResult(
        "team-a/waiting",
        "pending",
        FLAVOR,
        "quota: nvidia.com/gpu in flavor taugrid-h200: the run requests 16, 8 is free to ClusterQueue "
        "team-a (nominal 8, cohort taugrid); no admitted run may be preempted for it",
    )


def test_the_heads_of_one_cycle_keep_the_hosts_they_were_given_as_it_began() -> None:
    """Kueue v0.19.2 places every head of a cycle on the capacity as the cycle starts and keeps
    those hosts while they still fit when its turn comes (pkg/scheduler/scheduler.go
    `updateAssignmentIfNeeded`): team-a's unconstrained run was given the emptiest-first tie
    n0 before team-b's run took rack r-b, and keeps it, though n3 is now the least free host.
    Measured on the real Kueue (issue 31 item 5, generated scenario s008)."""
    nodes = [node("n0", "r-a"), node("n1", "r-b"), node("n2", "r-c"), node("n3", "r-b")]
    queues = (queue("team-a", 8, borrowing_limit=8), queue("shared", 24))
    rack = run("r0", 5, key="team-b/r0", queue="shared", per_pod={GPU: 2}, gpus=2, level="rack")
    wide = run(
        "r1",
        6,
        queue="team-a",
        per_pod={GPU: 1},
        gpus=1,
        level=None,
        mode="unconstrained",
        created="2026-11-29T11:00:00Z",
    )
    result = simulate(cluster(nodes, [rack, wide], queues=queues))
    assert result.runs == (
        RunResult("team-b/r0", "admitted", FLAVOR, ranks=("n1", "n1", "n1", "n1", "n3")),
        RunResult("team-a/r1", "admitted", FLAVOR, ranks=("n0",) * 6),
    )


def test_a_head_whose_hosts_were_taken_in_its_cycle_is_placed_again() -> None:
    """...and places again one whose hosts no longer hold it (TASRecomputeAssignmentWithinSchedulingCycle,
    on by default): both heads were given n0 as the cycle began; team-a's, second, goes to n1."""
    nodes = [node("n0", "r-a"), node("n1", "r-b")]
    queues = (queue("team-a", 8), queue("shared", 8))
    first = run("one", 1, key="team-b/one", queue="shared", level=HOSTNAME)
    second = run("two", 1, queue="team-a", level=HOSTNAME, created="2026-11-29T11:00:00Z")
    result = simulate(cluster(nodes, [first, second], queues=queues))
    assert [r.ranks for r in result.runs] == [("n0",), ("n1",)]
