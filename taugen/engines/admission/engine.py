"""One simulation (S2-S5, T8): already admitted runs resume, new runs are admitted in Kueue's
scheduling cycles (cycle.py), then nodeDown events are applied in order.

BestEffortFIFO: in each ClusterQueue, priority descending, then createdAt ascending (then the
key, so that equal inputs in any order give one answer); a run that does not fit is skipped
and later runs may still be admitted. With one ClusterQueue a cycle is one run, in the plain
BestEffortFIFO order. Quota is checked per ClusterQueue and cohort (quota.py); in a cohort a
run that does not fit may preempt (preemption.py): it is admitted on the freed quota at once
(Kueue admits it in the cycle after its victims are gone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from taugen.engines.admission.admission import Short, borrow_height, check_quota, usage_of
from taugen.engines.admission.cycle import CycleScheduler, Nomination
from taugen.engines.admission.fair import FairOrder
from taugen.engines.admission.fair_preemption import fair_victims
from taugen.engines.admission.flavors import assign_flavors, untolerated_reason
from taugen.engines.admission.model import (
    NO_PREEMPTION,
    FlavorTotal,
    RunResult,
    SimFlavor,
    SimInput,
    SimResult,
    SimRun,
    Victim,
)
from taugen.engines.admission.nowhere import topology_reason
from taugen.engines.admission.podsets import place_pod_sets
from taugen.engines.admission.preemption import Holder, Preemptor, find_victims
from taugen.engines.admission.ranks import place_again, rank_hosts, required_domain
from taugen.engines.admission.scan import ScanProgress
from taugen.engines.admission.state import SimCluster
from taugen.engines.placement.tas import Assignment, NoFit, find_assignment
from taugen.engines.placement.tree import Resources
from taugen.models.node_filters import untolerated

GPU = "nvidia.com/gpu"
PREEMPTION = (
    "preemption is Kueue's classical preemption on quota (fair sharing off): a run held back "
    "by topology alone preempts nothing, and a preempted run is not admitted again (T8)"
)
FAIR_SHARING = (
    "preemption and order are Kueue's fair sharing, as the cluster's Kueue runs it (taugen.yaml "
    "kueue.fairSharing, preemptionStrategies {}): each cycle takes its heads in the order of the "
    "dominant-resource-share (DRS) tournament over the cohort tree, weighted by fairSharing.weight, "
    "and a run preempts by those strategies (borrowWithinCohort is not read); a run held back by "
    "topology alone preempts nothing, and a preempted run is not admitted again (R49, R52)"
)
OVERLAP = (
    "skipped in this cycle: a run it would preempt was preempted by an earlier run of the cycle "
    "(Kueue's overlapping preemption targets); it is tried again in the next"
)
FAIR_ALONE = (
    "the cluster's Kueue runs with fair sharing (taugen.yaml kueue.fairSharing), which orders and "
    "preempts within a cohort: with one ClusterQueue and no cohort it decides nothing here (R49)"
)
REASONS = {
    "InClusterQueue": "prioritization in the ClusterQueue",
    "InCohortReclamation": "reclamation within the cohort",
    "InCohortReclaimWhileBorrowing": "reclamation within the cohort while borrowing",
    "InCohortFairSharing": "Fair Sharing within the cohort",
}


def admission_order(runs: tuple[SimRun, ...]) -> list[SimRun]:
    return sorted(runs, key=lambda r: (-r.priority, r.created, r.key))


def simulate(source: SimInput, cycles: int | None = None) -> SimResult:
    """`cycles`: stop after that many scheduling cycles (None: until no cycle changes anything;
    R52: the result says how many ran, and which runs were still queued when they ran out)."""
    cluster = SimCluster.of(source)
    flavors = {f.name: f for f in source.flavors}
    order = admission_order(source.runs)
    plans: dict[str, dict[int, str]] = {}
    results: dict[str, RunResult] = {}
    for run in order:
        if run.plan is not None:
            results[run.key] = _resume(cluster, flavors, run, plans)
    runs = {r.key: r for r in order}
    preempted: dict[str, RunResult] = {}
    placed_at_nomination: dict[str, list[str] | str] = {}
    # R49: with fair sharing on, the victims a preemptor was nominated with; one whose target an
    # earlier preemptor of the cycle took is skipped, as Kueue skips overlapping preemption
    # targets (RecomputeAssignmentUponPreemptionTargetsOverlap off, its default in v0.19.2)
    nominated_targets: dict[str, tuple[str, ...]] = {}
    scan = ScanProgress()  # R47: each run's LastTriedFlavorIdx across cycles

    def process(run: SimRun, nominated: Nomination) -> RunResult:
        early = placed_at_nomination.pop(run.key, None)
        targets = nominated_targets.pop(run.key, ())
        if any(key not in cluster.holders for key in targets):  # R49: fair sharing on
            return RunResult(run.key, "pending", run.flavor, OVERLAP)
        result = _admit(cluster, flavors, run, plans, nominated, early)
        if result.status == "admitted":  # R47: the flavor it took is the one it holds
            runs[run.key] = cluster.runs[run.key] = run
        if run.flavors and run.more:  # R47: Kueue assigns each pod set its own flavor
            result = replace(result, pod_set_flavors=run.pod_set_flavors())
        for victim in result.victims:
            preempted[victim.key] = _preempted(cluster, runs[victim.key], run, victim)
            scan.remove_from(runs[victim.key].queue)
        if result.victims:
            scan.forget(run.key)  # Kueue's markPreemptionOutcome
        return result

    def nominate(run: SimRun) -> Nomination:
        """Kueue nominates a preemptor with its victims as the cycle starts: none, it waits.
        A head that fits is placed now, on the capacity as the cycle starts (at_nomination)."""
        found = _why_pending(cluster, flavors, run)
        flavor = flavors.get(run.flavor or "")
        nominated_targets.pop(run.key, None)
        if found is None and flavor is not None and flavor.tas:
            placed_at_nomination[run.key] = _fit(cluster, flavor, run)
        if isinstance(found, Short) and found.need and flavor:
            victims = _victims(cluster, flavor, run, found.need)
            if not victims:
                return replace(found, candidates=False)
            if source.fair_sharing is not None:
                nominated_targets[run.key] = tuple(v.key for v in victims)
        return found

    def assign(run: SimRun) -> SimRun:
        start = scan.start(run.key, run.queue, scheduler.cycles)
        found = assign_flavors(
            cluster.quota,
            run,
            lambda r: _why_pending(cluster, flavors, r),
            lambda r, short: _victims(cluster, flavors[r.flavor or ""], r, short.need),
            lambda r, victims: _borrow_after(cluster, r, victims),
            start,
        )
        if run.flavors:
            scan.record(run.key, run.queue, start, found.tried, scheduler.cycles)
        return found.run

    scheduler = CycleScheduler(
        cluster.quota, nominate, process, assign, lambda run: scan.flavors_left(run.key)
    )
    if source.fair_sharing is not None and source.preempts:  # R49: the DRS tournament's order
        scheduler.order = FairOrder(cluster.quota).pick
    results.update(scheduler.run([r for r in order if r.plan is None], cycles))
    results.update(preempted)
    order = [runs[r.key] for r in order]  # R47: with the flavors they took
    for node in source.down:
        _node_down(cluster, node, order, results, plans)
    totals = _totals(cluster, source, results)
    found = tuple(results[r.key] for r in order)
    return SimResult(
        found,
        totals,
        _notes(source),
        source.preempts,
        scheduler.cycles,
        cycles,
        scheduler.cut_off,
        source.fair_sharing,
    )


def _notes(source: SimInput) -> tuple[str, ...]:
    """Which mode decided (R49): fair sharing, classical preemption, or none (one queue)."""
    if not source.preempts:
        return (NO_PREEMPTION,) + ((FAIR_ALONE,) if source.fair_sharing is not None else ())
    if source.fair_sharing is not None:
        return (FAIR_SHARING.format(", ".join(source.fair_sharing)),)
    return (PREEMPTION,)


def _resume(
    cluster: SimCluster, flavors: dict[str, SimFlavor], run: SimRun, plans: dict[str, dict[int, str]]
) -> RunResult:
    """S1, S5: an admitted run keeps its quota; its ranks with no running pod are placed again."""
    cluster.charge(run)
    flavor = flavors.get(run.flavor or "")
    if flavor is None or not flavor.tas:
        return RunResult(run.key, "admitted", run.flavor, ranks=(None,) * run.pods)
    plans[run.key] = dict(run.plan or {})
    missing = [r for r in range(run.pods) if r not in cluster.placed.get(run.key, {})]
    return _replaced(cluster, run, missing, plans, "its plan")


def _admit(
    cluster: SimCluster,
    flavors: dict[str, SimFlavor],
    run: SimRun,
    plans: dict[str, dict[int, str]],
    nominated: Nomination,
    early: list[str] | str | None = None,
) -> RunResult:
    """As Kueue processes a cycle's entry: one nominated not to fit stays out; one nominated
    to fit is checked again and never preempts, and keeps the hosts it was given as the cycle
    began (`early`) while they still fit; one nominated to preempt looks for victims now."""
    if isinstance(nominated, str) or (
        isinstance(nominated, Short) and not (nominated.need and nominated.candidates)
    ):
        return RunResult(
            run.key, "pending", run.flavor, nominated if isinstance(nominated, str) else nominated.reason
        )
    pending = _why_pending(cluster, flavors, run)
    if isinstance(pending, Short) and nominated is None:
        pending = pending.reason
    if isinstance(pending, str):
        return RunResult(run.key, "pending", run.flavor, pending)
    flavor = flavors[run.flavor or ""]
    victims: tuple[Victim, ...] = ()
    if pending is not None:
        victims = _victims(cluster, flavor, run, pending.need)
        if not victims:
            return RunResult(run.key, "pending", flavor.name, pending.reason)
        for victim in victims:
            _release(cluster, cluster.source_run(victim.key))
    if not flavor.tas:
        cluster.charge(run)
        return RunResult(run.key, "admitted", flavor.name, ranks=(None,) * run.pods, victims=victims)
    hosts = _fit(cluster, flavor, run) if victims else _placement(cluster, flavor, run, early)
    if isinstance(hosts, str):
        return RunResult(run.key, "pending", flavor.name, hosts)
    for rank, host in enumerate(hosts):
        cluster.take(host, run.pod(rank))
    cluster.charge(run)
    plans[run.key] = dict(enumerate(hosts))
    cluster.placed[run.key] = dict(plans[run.key])
    return RunResult(run.key, "admitted", flavor.name, ranks=tuple(hosts), victims=victims)


def _placement(
    cluster: SimCluster, flavor: SimFlavor, run: SimRun, early: list[str] | str | None
) -> list[str] | str:
    """Kueue places every head of a cycle as the cycle starts (its nomination,
    pkg/scheduler/scheduler.go `nominate`) and keeps those hosts when the head's turn comes
    while they still fit beside what earlier heads took; one that no longer fits is placed
    again on what is left (`updateAssignmentIfNeeded`, TASRecomputeAssignmentWithinSchedulingCycle,
    on by default in v0.19.2). With one ClusterQueue a cycle has one head: the same hosts."""
    if isinstance(early, str) or (early is not None and cluster.holds(run, early)):
        return early
    return _fit(cluster, flavor, run)


def _borrow_after(cluster: SimCluster, run: SimRun, victims: Sequence[Victim]) -> int:
    """R47: how far the run would borrow once `victims` no longer hold their quota."""
    held = [cluster.holders[v.key] for v in victims if v.key in cluster.holders]
    for holder in held:
        cluster.quota.add(holder.queue, holder.usage, sign=-1)
    level = borrow_height(cluster.quota, run)
    for holder in held:
        cluster.quota.add(holder.queue, holder.usage)
    return level


def _place(cluster: SimCluster, flavor: SimFlavor, run: SimRun) -> Assignment | NoFit:
    request = run.pod_request(flavor.tolerations)
    return find_assignment(cluster.tree(flavor.name), request, cluster.leaf_free(flavor.name))


def _fit(cluster: SimCluster, flavor: SimFlavor, run: SimRun) -> list[str] | str:
    """Each pod's host in rank order, or why the run stays pending (K6: pod set by pod set)."""
    if run.more:
        return place_pod_sets(cluster, flavor, run)
    found = _place(cluster, flavor, run)
    if isinstance(found, NoFit):
        per_pod = run.pod_request(flavor.tolerations).per_pod
        return topology_reason(_no_fit(run), found.reason, cluster, flavor, run, per_pod)
    return rank_hosts(cluster, found)


def _why_pending(cluster: SimCluster, flavors: dict[str, SimFlavor], run: SimRun) -> str | Short | None:
    """The reason it cannot be admitted; a Short with `need` when preemption may make room."""
    if run.not_ready is not None:  # the whole reason (inputs.py): a profile, a workload, the slot
        return run.not_ready
    flavor = flavors.get(run.flavor or "")
    if flavor is None:
        return f"no ResourceFlavor of the ClusterQueue serves the run ({run.flavor or 'none'})"
    taint = untolerated(flavor.taints, (*run.tolerations, *flavor.tolerations))
    if taint is not None:  # R47: Kueue's checkFlavorForPodSets, before quota
        return untolerated_reason(taint, flavor.name)
    if run.queue not in cluster.quota.queues:
        return f"no ClusterQueue {run.queue} in the tree: its LocalQueue points nowhere"
    short = check_quota(cluster.quota, run, cluster.source.preempts, cluster.source.fair_sharing is not None)
    if short is None or short.need:
        return short
    return short.reason


def _victims(
    cluster: SimCluster, flavor: SimFlavor, run: SimRun, need: frozenset[tuple[str, str]]
) -> tuple[Victim, ...]:
    """T8: the fewest admitted runs whose preemption lets the run fit, quota and topology."""

    def also_fits(victims: Sequence[Holder]) -> bool:
        if not flavor.tas:
            return True
        freed = [freed for v in victims for freed in _freed(cluster, cluster.source_run(v.key))]
        for host, amount in freed:
            cluster.take(host, amount, sign=-1)
        fits = not isinstance(_fit(cluster, flavor, run), str)
        for host, amount in freed:
            cluster.take(host, amount)
        return fits

    wanted = Preemptor(run.queue, run.priority, run.created, usage_of(run), need)
    holders = list(cluster.holders.values())
    strategies = cluster.source.fair_sharing
    if strategies is not None:  # R49: Kueue's fair preemption replaces the classical one
        return fair_victims(cluster.quota, wanted, holders, also_fits, strategies)
    return find_victims(cluster.quota, wanted, holders, also_fits)


def _freed(cluster: SimCluster, run: SimRun) -> list[tuple[str, Resources]]:
    """What preempting the run frees on each Ready host (K6: each pod its pod set's requests)."""
    if not run.more:
        return [(host, run.per_pod) for host in cluster.hosts_of(run.key)]
    placed = cluster.placed.get(run.key, {})
    return [(host, run.pod(rank)) for rank, host in sorted(placed.items()) if host not in cluster.down]


def _preempted(cluster: SimCluster, run: SimRun, by: SimRun, victim: Victim) -> RunResult:
    why = REASONS.get(victim.reason, victim.reason)
    reason = f"preempted by {by.key}: {why} ({victim.reason})"
    return RunResult(run.key, "preempted", run.flavor, reason)


def _no_fit(run: SimRun) -> str:
    if run.mode == "unconstrained":
        return f"no set of hosts holds {run.count} pods"
    return f"no {run.level} domain holds {run.count} pods"


def _replaced(
    cluster: SimCluster, run: SimRun, ranks: list[int], plans: dict[str, dict[int, str]], lost: str
) -> RunResult:
    plan = plans[run.key]
    failed = place_again(cluster, run, ranks, plan)
    if failed is not None:
        index = run.pod_set_of(failed)
        domain = "/".join(required_domain(cluster, run, plan, index)) or "the flavor"
        _release(cluster, run)
        which = f" of pod set {run.pod_sets()[index].name}" if run.more else ""
        reason = f"rank {failed}{which} ({lost}) found no free Ready host in {domain}: evicted and requeued"
        return RunResult(run.key, "evicted", run.flavor, reason)
    placed = cluster.placed.get(run.key, {})
    return RunResult(
        run.key, "admitted", run.flavor, "", tuple(placed.get(i) for i in range(run.pods)), tuple(ranks)
    )


def _release(cluster: SimCluster, run: SimRun) -> None:
    for rank, host in cluster.placed.pop(run.key, {}).items():
        if host not in cluster.down:
            cluster.take(host, run.pod(rank), sign=-1)
    cluster.charge(run, sign=-1)


def _node_down(
    cluster: SimCluster,
    node: str,
    order: list[SimRun],
    results: dict[str, RunResult],
    plans: dict[str, dict[int, str]],
) -> None:
    """S5: every rank on the node is lost and placed again inside the run's required domain."""
    cluster.go_down(node)
    for run in order:
        placed = cluster.placed.get(run.key, {})
        lost = sorted(rank for rank, host in placed.items() if host == node)
        if not lost or results[run.key].status != "admitted":
            continue
        for rank in lost:
            del placed[rank]
        before = results[run.key].replaced
        after = _replaced(cluster, run, lost, plans, f"lost on {node}")
        results[run.key] = RunResult(
            after.key,
            after.status,
            after.flavor,
            after.reason,
            after.ranks,
            tuple(sorted({*before, *after.replaced})),
        )


def _totals(cluster: SimCluster, source: SimInput, results: dict[str, RunResult]) -> tuple[FlavorTotal, ...]:
    totals = []
    for flavor in sorted(f.name for f in source.flavors if f.tas):
        # R47: a run with fallback classes counts under the flavor it took (pending: its first)
        # R47: a JobSet's pod sets each under their own flavor
        runs = [cluster.runs[r.key] for r in source.runs if flavor in cluster.runs[r.key].pod_set_flavors()]
        admitted = [r for r in runs if results[r.key].status == "admitted"]
        free = sum(
            max(cluster.free[n.name].get(GPU, 0), 0)
            for n in cluster.nodes.values()
            if n.flavor == flavor and n.name not in cluster.down
        )
        totals.append(
            FlavorTotal(
                flavor, sum(r.gpus_on(flavor) for r in runs), sum(r.gpus_on(flavor) for r in admitted), free
            )
        )
    return tuple(totals)
