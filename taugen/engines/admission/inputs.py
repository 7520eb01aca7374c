"""The core's input from a resolved cluster, its compiled tree and the resolved runs (S1-S3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from taugen.api.kueue.flavor import Toleration as FlavorToleration
from taugen.compile.common import TOPOLOGY
from taugen.compile.slot import SLOT, no_slot_reason
from taugen.context.kueue_tree import CompiledQueue, KueueTree
from taugen.context.node_labels import NodeLabels
from taugen.core.errors import InputError, Problem
from taugen.core.timestamps import utc_sortable
from taugen.engines.admission.model import SimFlavor, SimInput, SimNode, SimPod, SimPodSet, SimRun
from taugen.engines.admission.workloads import RULE, LoadedWorkloads
from taugen.engines.placement.request import Mode, SliceLayer
from taugen.engines.placement.tree import FilterToleration
from taugen.engines.runs.node_filters import (
    node_labels,
    node_taints,
    run_affinity,
    run_tolerations,
    toleration,
)
from taugen.engines.runs.podsets import PodSet
from taugen.engines.runs.resolution import RunContext
from taugen.engines.runs.state import ClusterState
from taugen.load.inventory import GPU
from taugen.models.run import Workload
from taugen.models.workloads import RunningPod as RunningPodDoc
from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import hostname_of
from taugen.resolve.labels import COMPUTED, GPU_CLASS
from taugen.resolve.levels import CONTRACT_LEVELS, Levels
from taugen.schedulers.kueue.compiled import queue_of, sim_cohorts, sim_queues
from taugen.schedulers.kueue.flavors import CPU_FLAVOR
from taugen.schedulers.kueue.model import KueueCluster
from taugen.schedulers.kueue.units import as_units


def sim_input(
    state: ClusterState,
    tree: KueueTree,
    labels: NodeLabels | None,
    loaded: LoadedWorkloads,
    contexts: Sequence[RunContext],
    slots: bool = True,
) -> SimInput:
    """For another tree than the project's (--tree, a side of a diff), node labels (class,
    topology) are that tree's (`labels`: its partial Nodes or NodeFeatureRules), so each side
    places nodes by its own; the project's tree is fresh (R32), so its labels are the resolved
    ones (`labels` None). Readiness and allocatable always come from the inventory. A GPU node
    offers a torchrun-host-slot only when the tree advertises it (`slots`, SPEC G4)."""
    flavor_of = _flavor_of_class(tree)
    found = state.resolved.levels  # R42: the Topology's, as the tree has it
    levels = found.labels
    nodes = tuple(_node(n, flavor_of, labels, slots, found) for n in state.resolved.nodes)
    cohort = any(q.cohort is not None for q in tree.queues)
    hosts = {n.name: n.flavor for n in nodes}
    runs = tuple(
        replica
        for c in contexts
        for replica in _replicas(_run(c, flavor_of, slots, queue_of(tree, c) if cohort else None, hosts), c)
    )
    named = {c.run.metadata.name for c in contexts}
    problems = _unknown_nodes(loaded, {n.name for n in nodes}, named)
    if problems:
        raise InputError(problems)
    keys = {r.key.split("/")[1]: r.key for r in runs}
    sizes = {c.run.metadata.name: c.run.size for c in contexts if c.run.workload == Workload.LEADERWORKERSET}
    running = tuple(_running(p, keys, sizes) for p in loaded.workloads.running)
    down = tuple(e.nodeDown for e in loaded.workloads.events)
    source = SimInput(TOPOLOGY, levels, _flavors(tree), nodes, runs, running, down)
    fair = state.cluster.fair_sharing if isinstance(state.cluster, KueueCluster) else None
    if fair is not None:  # R49: recorded on, simulate decides as Kueue's fair sharing
        source = replace(source, fair_sharing=fair.strategies)
    if not cohort:  # one ClusterQueue: S2 exactly as before
        return source
    return replace(source, queues=sim_queues(tree), cohorts=sim_cohorts(tree))


def _flavor_of_class(tree: KueueTree) -> dict[str | None, str]:
    """gpu-class -> the first queued flavor matching it on that label alone (§7); None -> CPU.
    A MultiKueue manager's flavors have no topologyName (M2): they serve their class too."""
    found: dict[str | None, str] = {None: CPU_FLAVOR}
    queued = [f.name for f in tree.queue.flavors]
    for flavor in sorted(
        tree.flavors, key=lambda f: queued.index(f.name) if f.name in queued else len(queued)
    ):
        gpu_class = flavor.node_labels.get(GPU_CLASS)
        if gpu_class is not None and flavor.name in queued:
            found.setdefault(gpu_class, flavor.name)
    return found


def _flavors(tree: KueueTree) -> tuple[SimFlavor, ...]:
    tas = {f.name for f in tree.flavors if f.topology is not None}
    tolerations = {f.name: tuple(_flavor_toleration(t) for t in f.tolerations) for f in tree.flavors}
    return tuple(
        SimFlavor(q.name, as_units(q.nominal), q.name in tas, tolerations.get(q.name, ()))
        for q in tree.queue.flavors
    )


def _flavor_toleration(raw: FlavorToleration) -> FilterToleration:
    return toleration(raw.key or "", raw.operator or "Equal", raw.value or "", raw.effect or None)


def _node(
    node: ResolvedNode,
    flavor_of: dict[str | None, str],
    tree_labels: NodeLabels | None,
    slots: bool,
    levels: Levels = CONTRACT_LEVELS,
) -> SimNode:
    allocatable = as_units(node.facts.allocatable)
    labels = node.labels if tree_labels is None else tree_labels.get(node.name, {})
    gpu_class = labels.get(GPU_CLASS)
    flavor = flavor_of.get(gpu_class) if gpu_class is not None else None
    if flavor is not None and slots:
        allocatable.setdefault(SLOT, 1)  # R27, G4: one torchrun-host-slot per GPU node
    taints, every = node_taints(node), node_labels(node, labels)
    if levels.missing(every):
        flavor = None  # R42: without a declared level's label, outside Kueue's topology
    # taugen's topology labels as the tree has them; a declared level's as the node has it (R42)
    values = [(labels if level in COMPUTED else every).get(level, "") for level in levels.labels[:-1]]
    path = (*values, hostname_of(node.facts))
    return SimNode(node.name, node.ready, flavor, path, allocatable, taints, every)


def _run(
    context: RunContext,
    flavor_of: dict[str | None, str],
    slots: bool,
    queue: CompiledQueue | None,
    hosts: Mapping[str, str | None],
) -> SimRun:
    """`queue`: in a cohort, the ClusterQueue its LocalQueue points to (T5); `hosts`: node ->
    its flavor (R47: an admitted run with fallback classes holds the flavor of its planned hosts)."""
    run, policy = context.run, context.policy
    per_pod = as_units(context.request)
    plan = getattr(run, "admitted", None)
    created = getattr(run, "createdAt", None)
    blocked = _blocked(context, slots)
    # R47: flavor_of is in the queues' flavor order (every queue of the tree has the same)
    candidates = [name for c, name in flavor_of.items() if c is not None and c in policy.classes]
    if plan is not None and len(candidates) > 1:
        taken = [hosts.get(h) for h in plan.ranks.values()]
        candidates = [next((f for f in taken if f in candidates), candidates[0])]
    if queue is not None and blocked is None and not queue.admits(run.metadata.namespace):
        blocked = (
            f"ClusterQueue {queue.name} does not admit namespace {run.metadata.namespace} (namespaceSelector)"
        )
    return SimRun(
        key=f"{run.metadata.namespace}/{run.metadata.name}",
        priority=context.priority,  # R50: the tier's value in the project
        created=utc_sortable(created) if created else "",
        flavor=candidates[0] if candidates else flavor_of.get(policy.classes[0] if policy.classes else None),
        flavors=tuple(candidates) if len(candidates) > 1 else (),
        count=context.pods,
        per_pod=per_pod,
        mode="required" if context.level else "preferred" if context.preferred_level else "unconstrained",
        level=context.level or context.preferred_level,
        not_ready=blocked,
        plan={int(k): v for k, v in plan.ranks.items()} if plan else None,
        gpus=per_pod.get(GPU, 0),
        queue=queue.name if queue is not None else "",
        admitted_at=utc_sortable(plan.at) if plan and plan.at else "",
        slices=_slices(context),
        leader=None if context.leader_request is None else as_units(context.leader_request),
        tolerations=run_tolerations(context),
        affinity=run_affinity(context),
    )


def _slices(context: RunContext) -> tuple[SliceLayer, ...]:
    return tuple(SliceLayer(level, size) for level, size in context.slice_layers)


def _replicas(run: SimRun, context: RunContext) -> tuple[SimRun, ...]:
    """K5: Kueue admits each replica of a LeaderWorkerSet as its own workload, its leader and
    workers one PodSet group that shares the run's domain: here a run `<name>-<i>` (the
    leader pod's name) of `size` pods, pod 0 the leader (with `leader.resources`, its own
    requests: placed as Kueue places a group). Same priority and creation time, so replicas
    are admitted in index order. An admitted plan gives each replica the part it names."""
    if context.run.workload == Workload.JOBSET:
        return (_jobset(run, context),)
    if context.run.workload != Workload.LEADERWORKERSET:
        return (run,)
    size = context.run.size
    return tuple(
        replace(run, key=f"{run.key}-{i}", count=size, plan=_replica_plan(run.plan, i, size))
        for i in range(context.run.replicas)
    )


def _replica_plan(plan: Mapping[int, str] | None, replica: int, size: int) -> dict[int, str] | None:
    """Replica `replica`'s part of an admitted LeaderWorkerSet's plan (pod index replica x size
    + j, as Kueue numbers the group's pods j), keyed by j; None when it names none of its pods:
    that replica is not admitted yet."""
    first = replica * size
    found = {rank - first: host for rank, host in (plan or {}).items() if first <= rank < first + size}
    return found or None


def _running(pod: RunningPodDoc, keys: Mapping[str, str], sizes: Mapping[str, int]) -> SimPod:
    """A running pod's run and pod index; a LeaderWorkerSet's index is across its replicas
    (K5): pod index i is replica i // size's pod i % size."""
    name, rank = pod.run or "", pod.rank
    if name in sizes and rank is not None:
        name, rank = f"{name}-{rank // sizes[name]}", rank % sizes[name]
    return SimPod(pod.node, as_units(pod.requests), keys.get(name), rank)


def _jobset(run: SimRun, context: RunContext) -> SimRun:
    """K6: Kueue admits a JobSet as one workload of one pod set per replicatedJob, in order; an
    admitted plan's pod indexes run across the pod sets in that order (as `ranks` prints them)."""
    first, *more = (_pod_set(p) for p in context.pod_sets)
    return run.headed(first, tuple(more))


def _pod_set(found: PodSet) -> SimPodSet:
    per_pod = as_units(found.request)
    mode: Mode = "required" if found.level else "preferred" if found.preferred_level else "unconstrained"
    layers = tuple(SliceLayer(level, size) for level, size in found.slice_layers)
    return SimPodSet(
        found.name,
        found.count,
        per_pod,
        mode,
        found.level or found.preferred_level,
        layers,
        per_pod.get(GPU, 0),
    )


def _blocked(context: RunContext, slots: bool) -> str | None:
    if context.not_ready is not None:
        return f"profile not ready: {context.not_ready}"
    if context.host_slot and not slots:
        return no_slot_reason()
    return None


def _unknown_nodes(loaded: LoadedWorkloads, nodes: set[str], runs: set[str]) -> list[Problem]:
    where, ws = loaded.doc, loaded.workloads
    hint = "name a node of the cluster's inventory"
    found = [
        where.at(["running", i, "node"]).problem(RULE, f"node {p.node} is not in the inventory", hint)
        for i, p in enumerate(ws.running)
        if p.node not in nodes
    ]
    found += [
        where.at(["running", i, "run"]).problem(RULE, f"no run {p.run} in the set", "name a run of `runs`")
        for i, p in enumerate(ws.running)
        if p.run is not None and p.run not in runs
    ]
    found += [
        where.at(["events", i, "nodeDown"]).problem(RULE, f"node {e.nodeDown} is not in the inventory", hint)
        for i, e in enumerate(ws.events)
        if e.nodeDown not in nodes
    ]
    found += [
        where.at(["runs", i, "admitted", "ranks", k]).problem(
            RULE, f"node {host} is not in the inventory", hint
        )
        for i, r in enumerate(ws.runs)
        for k, host in (r.admitted.ranks.items() if r.admitted else ())
        if host not in nodes
    ]
    return found
