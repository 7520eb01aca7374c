"""Phase 1 of Kueue's TAS (S3): how many pods each domain holds, and why nodes were excluded.

Leaves get `count_in(request + 1 pod, free)`; a parent holds the sum of its children. When the
host is the lowest level, a node with an untolerated NoSchedule/NoExecute taint, then one the
pod's node selector does not match, is excluded and counted (Kueue's feasibility order); a
leaf outside a required replacement domain holds nothing (Kueue #9210 path).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from taugen.simulate.tree import PODS, DomainPath, Resources, Taint, TasTree, Toleration, count_in, wanted


@dataclass
class Exclusions:
    """Kueue's ExclusionStats: appended to a failure message when anything was excluded."""

    total: int = 0
    topology_domain: int = 0
    node_selector: int = 0
    taints: dict[str, int] = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)

    def suffix(self) -> str:
        reasons = [f"topologyDomain: {self.topology_domain}"] if self.topology_domain else []
        reasons += [f"nodeSelector: {self.node_selector}"] if self.node_selector else []
        reasons += [f'taint "{t}": {n}' for t, n in self.taints.items()]
        reasons += [f'resource "{r}": {n}' for r, n in self.resources.items()]
        if not reasons:
            return ""
        return f". Total nodes: {self.total}; excluded: {', '.join(sorted(reasons))}"


def fill_counts(
    tree: TasTree,
    per_pod: Resources,
    free: Mapping[DomainPath, Resources],
    tolerations: Sequence[Toleration] = (),
    within: DomainPath | None = None,
    selector: Sequence[tuple[str, str]] = (),
) -> tuple[dict[DomainPath, int], Exclusions]:
    request = wanted({**per_pod, PODS: per_pod.get(PODS, 0) + 1})
    state: dict[DomainPath, int] = {}
    stats = Exclusions()
    filters = (tolerations, selector)
    for leaf in tree.leaves():
        stats.total += 1
        state[leaf.path] = _leaf(tree, leaf.path, request, free, filters, within, stats)
    for depth in range(len(tree.levels) - 2, -1, -1):
        for domain in tree.per_level[depth]:
            state[domain.path] = sum(state[c.path] for c in domain.children)
    return state, stats


def _leaf(
    tree: TasTree,
    path: DomainPath,
    request: tuple[tuple[str, int], ...],
    free: Mapping[DomainPath, Resources],
    filters: tuple[Sequence[Toleration], Sequence[tuple[str, str]]],
    within: DomainPath | None,
    stats: Exclusions,
) -> int:
    tolerations, selector = filters
    if tree.tainted and tree.host_leaves and (taint := _untolerated(tree, path, tolerations)) is not None:
        stats.taints[str(taint)] = stats.taints.get(str(taint), 0) + 1
        return 0
    if selector and tree.host_leaves and not _selected(tree, path, selector):
        stats.node_selector += 1
        return 0
    if within is not None and path[: len(within)] != within:
        stats.topology_domain += 1
        return 0
    fits, limiting = count_in(request, free.get(path, {}))
    if fits == 0 and limiting is not None:
        stats.resources[limiting] = stats.resources.get(limiting, 0) + 1
    return fits


def _selected(tree: TasTree, path: DomainPath, selector: Sequence[tuple[str, str]]) -> bool:
    return all(all(item in node.labels for item in selector) for node in tree.nodes.get(path, ()))


def _untolerated(tree: TasTree, path: DomainPath, tolerations: Sequence[Toleration]) -> Taint | None:
    for node in tree.nodes.get(path, ()):
        for taint in node.taints:
            if taint.schedules and not any(t.tolerates(taint) for t in tolerations):
                return taint
    return None
