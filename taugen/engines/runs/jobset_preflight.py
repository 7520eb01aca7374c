"""The topology check of preflight for a JobSet run (K6): the pod sets in order, each on the
capacity the earlier ones leave (as Kueue places one workload's pod sets), in principle only:
Ready nodes of the class that the run's pods may use (taints tolerated, node affinity met),
nothing else running (capacity.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from taugen.core.quantity import Quantity
from taugen.engines.runs.capacity import PODS, domains, pods_per_node
from taugen.engines.runs.node_filters import node_filter
from taugen.engines.runs.podsets import PodSet
from taugen.engines.runs.resolution import RunContext
from taugen.resolve.cluster import ResolvedNode
from taugen.schedulers.protocol import Check

Free = dict[str, dict[str, Quantity]]  # node -> what is left of its allocatable


def fit_pod_sets(context: RunContext) -> tuple[Check, PodSet | None]:
    """The check, and the pod set that found no domain (None when every one did)."""
    admits = node_filter(context)
    nodes = [n for n in context.state.resolved.nodes if n.gpu_class == context.policy.gpu_class and n.ready]
    nodes = [n for n in nodes if admits(n) and not context.levels.missing(n.facts.labels)]  # R42
    free: Free = {n.name: dict(n.facts.allocatable) for n in nodes}
    parts: list[str] = []
    for pod_set in context.pod_sets:
        found = _place(nodes, free, pod_set)
        if found is None:
            scope = pod_set.level or "the whole cluster"
            beside = " beside the pod sets before it" if parts else ""
            message = f"pod set {pod_set.name}: no {scope} holds its {pod_set.count} pods{beside}"
            return Check("topology", False, "; ".join([*parts, message])), pod_set
        parts.append(f"pod set {pod_set.name}: {found} holds {pod_set.count}")
    return Check("topology", True, "; ".join(parts)), None


def _place(nodes: list[ResolvedNode], free: Free, pod_set: PodSet) -> str | None:
    """The best-fit domain at the pod set's required level (any, unconstrained or preferred)
    that holds its pods; they are taken from its nodes in path order."""
    views = [_with(n, free[n.name]) for n in nodes]
    labels = pod_set.levels.labels
    fitting = [
        d
        for d in domains(views, pod_set.level, pod_set.request, False, levels=labels)
        if d.ranks >= pod_set.count
    ]
    if not fitting:
        return None
    best = min(fitting, key=lambda d: (d.ranks, d.path))
    members = [n for n in sorted(views, key=lambda n: n.name) if _in(n, best.path, pod_set)]
    left = pod_set.count
    for node in members:
        take = min(left, pods_per_node(node, pod_set.request, False))
        _take(free[node.name], pod_set.request, take)
        left -= take
    return best.name


def _in(node: ResolvedNode, path: tuple[str, ...], pod_set: PodSet) -> bool:
    (found,) = domains([node], pod_set.level, pod_set.request, False, levels=pod_set.levels.labels)
    return found.path == path


def _with(node: ResolvedNode, free: Mapping[str, Quantity]) -> ResolvedNode:
    return replace(node, facts=replace(node.facts, allocatable=dict(free)))


def _take(free: dict[str, Quantity], request: Mapping[str, Quantity], pods: int) -> None:
    asked = {**request, PODS: Quantity.parse(1)} if PODS in free else dict(request)
    for name, q in asked.items():
        if name in free:
            free[name] = Quantity(free[name].value - q.value * pods, free[name].format)
