"""One simulation (S2-S5): already admitted runs resume, new runs are admitted in Kueue's
BestEffortFIFO order, then nodeDown events are applied in order.

BestEffortFIFO: priority descending, then createdAt ascending (then the key, so that equal
inputs in any order give one answer); a run that does not fit is skipped and later runs may
still be admitted. Quota is the ClusterQueue's nominal quota per flavor and resource.
"""

from __future__ import annotations

from taugen.simulate.model import FlavorTotal, RunResult, SimFlavor, SimInput, SimResult, SimRun
from taugen.simulate.ranks import place_again, rank_hosts, required_domain
from taugen.simulate.state import Cluster
from taugen.simulate.tas import NoFit, PodRequest, find_assignment
from taugen.simulate.units import shown

GPU = "nvidia.com/gpu"


def admission_order(runs: tuple[SimRun, ...]) -> list[SimRun]:
    return sorted(runs, key=lambda r: (-r.priority, r.created, r.key))


def simulate(source: SimInput) -> SimResult:
    cluster = Cluster.of(source)
    flavors = {f.name: f for f in source.flavors}
    order = admission_order(source.runs)
    plans: dict[str, dict[int, str]] = {}
    results: dict[str, RunResult] = {}
    for run in order:
        if run.plan is not None:
            results[run.key] = _resume(cluster, flavors, run, plans)
    for run in order:
        if run.plan is None:
            results[run.key] = _admit(cluster, flavors, run, plans)
    for node in source.down:
        _node_down(cluster, node, order, results, plans)
    return SimResult(tuple(results[r.key] for r in order), _totals(cluster, source, results))


def _resume(
    cluster: Cluster, flavors: dict[str, SimFlavor], run: SimRun, plans: dict[str, dict[int, str]]
) -> RunResult:
    """S1, S5: an admitted run keeps its quota; its ranks with no running pod are placed again."""
    cluster.charge(run)
    flavor = flavors.get(run.flavor or "")
    if flavor is None or not flavor.tas:
        return RunResult(run.key, "admitted", run.flavor, ranks=(None,) * run.count)
    plans[run.key] = dict(run.plan or {})
    missing = [r for r in range(run.count) if r not in cluster.placed.get(run.key, {})]
    return _replaced(cluster, run, missing, plans, "its plan")


def _admit(
    cluster: Cluster, flavors: dict[str, SimFlavor], run: SimRun, plans: dict[str, dict[int, str]]
) -> RunResult:
    pending = _why_pending(cluster, flavors, run)
    if pending is not None:
        return RunResult(run.key, "pending", run.flavor, pending)
    flavor = flavors[run.flavor or ""]
    if not flavor.tas:
        cluster.charge(run)
        return RunResult(run.key, "admitted", flavor.name, ranks=(None,) * run.count)
    request = PodRequest(run.count, run.per_pod, run.mode, run.level)
    found = find_assignment(cluster.tree(flavor.name), request, cluster.leaf_free(flavor.name))
    if isinstance(found, NoFit):
        return RunResult(run.key, "pending", flavor.name, _no_fit(run, found))
    hosts = rank_hosts(cluster, found)
    for host in hosts:
        cluster.take(host, run.per_pod)
    cluster.charge(run)
    plans[run.key] = dict(enumerate(hosts))
    cluster.placed[run.key] = dict(plans[run.key])
    return RunResult(run.key, "admitted", flavor.name, ranks=tuple(hosts))


def _why_pending(cluster: Cluster, flavors: dict[str, SimFlavor], run: SimRun) -> str | None:
    if run.not_ready is not None:  # the whole reason (inputs.py): a profile, a workload, the slot
        return run.not_ready
    flavor = flavors.get(run.flavor or "")
    if flavor is None:
        return f"no ResourceFlavor of the ClusterQueue serves the run ({run.flavor or 'none'})"
    short = cluster.quota_short(run, flavor.nominal)
    if short is None:
        return None
    resource, need, left = short
    if resource not in flavor.nominal:
        return f"quota: {resource} is not covered by the ClusterQueue (flavor {flavor.name})"
    nominal = flavor.nominal[resource]
    return (
        f"quota: {resource} in flavor {flavor.name}: the run requests {shown(resource, need)}, "
        f"{shown(resource, max(left, 0))} of the nominal {shown(resource, nominal)} is unused"
    )


def _no_fit(run: SimRun, found: NoFit) -> str:
    if run.mode == "unconstrained":
        return f"topology: no set of hosts holds {run.count} pods: {found.reason}"
    return f"topology: no {run.level} domain holds {run.count} pods: {found.reason}"


def _replaced(
    cluster: Cluster, run: SimRun, ranks: list[int], plans: dict[str, dict[int, str]], lost: str
) -> RunResult:
    plan = plans[run.key]
    failed = place_again(cluster, run, ranks, plan)
    if failed is not None:
        domain = "/".join(required_domain(cluster, run, plan)) or "the flavor"
        _release(cluster, run)
        reason = f"rank {failed} ({lost}) found no free Ready host in {domain}: evicted and requeued"
        return RunResult(run.key, "evicted", run.flavor, reason)
    placed = cluster.placed.get(run.key, {})
    return RunResult(
        run.key, "admitted", run.flavor, "", tuple(placed.get(i) for i in range(run.count)), tuple(ranks)
    )


def _release(cluster: Cluster, run: SimRun) -> None:
    for host in cluster.placed.pop(run.key, {}).values():
        if host not in cluster.down:
            cluster.take(host, run.per_pod, sign=-1)
    cluster.charge(run, sign=-1)


def _node_down(
    cluster: Cluster,
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


def _totals(cluster: Cluster, source: SimInput, results: dict[str, RunResult]) -> tuple[FlavorTotal, ...]:
    totals = []
    for flavor in sorted(f.name for f in source.flavors if f.tas):
        runs = [r for r in source.runs if r.flavor == flavor]
        admitted = [r for r in runs if results[r.key].status == "admitted"]
        free = sum(
            max(cluster.free[n.name].get(GPU, 0), 0)
            for n in cluster.nodes.values()
            if n.flavor == flavor and n.name not in cluster.down
        )
        totals.append(
            FlavorTotal(
                flavor, sum(r.gpus * r.count for r in runs), sum(r.gpus * r.count for r in admitted), free
            )
        )
    return tuple(totals)
