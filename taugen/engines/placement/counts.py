"""Phase 1 of Kueue's TAS (S3): how many pods, slices and leaders each domain holds, and why
nodes were excluded (Kueue v0.19.2 fillInCounts).

Leaves get `count_in(request + 1 pod, free)`; with a leader (a PodSet group, K5) a leaf also
holds one leader when its request fits, and `pod_wl` is what is left for workers beside it. A
parent holds the sum of its children (`pod_wl`: minus the smallest leader penalty of a child
that can hold the leader). At the slice level a domain holds `pods // slice size` slices; an
inner slice layer rounds each child down to whole inner slices. When the host is the lowest
level, a node with an untolerated NoSchedule/NoExecute taint, then one the pod's node selector
does not match, then one its required node affinity does not match, is excluded and counted
(Kueue's FindFeasibleNodes order); a leaf outside a required replacement domain holds
nothing (Kueue #9210 path).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from taugen.engines.placement.tree import (
    PODS,
    DomainPath,
    FilterTaint,
    FilterToleration,
    Resources,
    TasTree,
    count_in,
    untolerated,
    wanted,
)
from taugen.models.node_filters import NodeRequirement, affinity_matches


@dataclass
class Exclusions:
    """Kueue's ExclusionStats: appended to a failure message when anything was excluded."""

    total: int = 0
    topology_domain: int = 0
    node_selector: int = 0
    affinity: int = 0
    taints: dict[str, int] = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)

    def suffix(self) -> str:
        reasons = [f"topologyDomain: {self.topology_domain}"] if self.topology_domain else []
        reasons += [f"nodeSelector: {self.node_selector}"] if self.node_selector else []
        reasons += [f"affinity: {self.affinity}"] if self.affinity else []
        reasons += [f'taint "{t}": {n}' for t, n in self.taints.items()]
        reasons += [f'resource "{r}": {n}' for r, n in self.resources.items()]
        if not reasons:
            return ""
        return f". Total nodes: {self.total}; excluded: {', '.join(sorted(reasons))}"


@dataclass
class Counts:
    """Kueue's domainState per domain path; phase 2 rewrites them to what it assigns."""

    pod: dict[DomainPath, int]
    slc: dict[DomainPath, int]
    pod_wl: dict[DomainPath, int]  # pods beside the leader (= pod without a leader)
    slc_wl: dict[DomainPath, int]
    lead: dict[DomainPath, int]


@dataclass(frozen=True)
class Filters:
    tolerations: Sequence[FilterToleration] = ()
    selector: Sequence[tuple[str, str]] = ()
    within: DomainPath | None = None  # a replacement's required domain
    affinity: Sequence[Sequence[NodeRequirement]] = ()  # required node affinity terms; (): none


@dataclass(frozen=True)
class Slicing:
    size: int = 1
    level: int = -1  # the slice level's index; -1: the lowest level
    inner: Mapping[int, int] = field(default_factory=dict)  # level index -> inner slice size


def fill_counts(
    tree: TasTree,
    per_pod: Resources,
    free: Mapping[DomainPath, Resources],
    filters: Filters = Filters(),
    leader: Resources | None = None,
    slicing: Slicing = Slicing(),
) -> tuple[Counts, Exclusions]:
    request = _with_pod(per_pod)
    stats = Exclusions()
    pods: dict[DomainPath, int] = {}
    feasible: list[DomainPath] = []
    for leaf in tree.leaves():
        fits = _pods(tree, leaf.path, request, free, filters, stats)
        pods[leaf.path] = fits or 0
        if fits is not None and leader is not None:
            feasible.append(leaf.path)
    stats.total = len(pods)
    last = len(tree.levels) - 1
    if leader is None and slicing.size == 1 and slicing.level in (-1, last) and not slicing.inner:
        # The common run: a pod is its own slice and there is no leader, so every count is the
        # pod count; one dict stands for all of them (phase 2 writes them to equal values).
        for depth in range(last - 1, -1, -1):
            for domain in tree.per_level[depth]:
                pods[domain.path] = sum(pods[c.path] for c in domain.children)
        return Counts(pods, pods, pods, pods, defaultdict(int)), stats
    counts = Counts(pods, {}, dict(pods), {}, dict.fromkeys(pods, 0))
    if leader is not None:
        _leaders(counts, feasible, (request, _with_pod(leader)), free)
    _roll_up(tree, counts, slicing, leader is not None)
    return counts, stats


def _with_pod(per_pod: Resources) -> tuple[tuple[str, int], ...]:
    return wanted({**per_pod, PODS: per_pod.get(PODS, 0) + 1})


def _pods(
    tree: TasTree,
    path: DomainPath,
    request: tuple[tuple[str, int], ...],
    free: Mapping[DomainPath, Resources],
    filters: Filters,
    stats: Exclusions,
) -> int | None:
    """Kueue's fillLeafCounts: the pods a feasible leaf holds; None for an excluded one."""
    if not _feasible(tree, path, filters, stats):
        return None
    fits, limiting = count_in(request, free.get(path, {}))
    if fits == 0 and limiting is not None:
        stats.resources[limiting] = stats.resources.get(limiting, 0) + 1
    return fits


def _leaders(
    counts: Counts,
    feasible: Sequence[DomainPath],
    requests: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]],
    free: Mapping[DomainPath, Resources],
) -> None:
    """A feasible leaf holds the leader when its request fits; `pod_wl`: the workers beside it."""
    request, leader = requests
    for path in feasible:
        remaining = free.get(path, {})
        if _fits(leader, remaining):
            counts.lead[path] = 1
            beside = {r: v - dict(leader).get(r, 0) for r, v in remaining.items()}
            counts.pod_wl[path] = count_in(request, beside)[0]


def _fits(request: tuple[tuple[str, int], ...], remaining: Resources) -> bool:
    return count_in(request, remaining)[0] > 0


def _feasible(tree: TasTree, path: DomainPath, filters: Filters, stats: Exclusions) -> bool:
    if (
        tree.tainted
        and tree.host_leaves
        and (taint := _untolerated(tree, path, filters.tolerations)) is not None
    ):
        stats.taints[str(taint)] = stats.taints.get(str(taint), 0) + 1
        return False
    if filters.selector and tree.host_leaves and not _selected(tree, path, filters.selector):
        stats.node_selector += 1
        return False
    if filters.affinity and tree.host_leaves and not _affine(tree, path, filters.affinity):
        stats.affinity += 1
        return False
    if filters.within is not None and path[: len(filters.within)] != filters.within:
        stats.topology_domain += 1
        return False
    return True


def _roll_up(tree: TasTree, counts: Counts, slicing: Slicing, leader: bool) -> None:
    """Kueue's fillInCountsHelper, level by level from the leaves up."""
    last = len(tree.levels) - 1
    at = last if slicing.level < 0 else slicing.level
    for path in counts.pod:
        counts.slc[path] = counts.pod[path] // slicing.size if at == last else 0
        counts.slc_wl[path] = counts.pod_wl[path] // slicing.size if at == last else 0
    for depth in range(last - 1, -1, -1):
        inner = slicing.inner.get(depth + 1)
        for domain in tree.per_level[depth]:
            _parent(counts, domain.path, [c.path for c in domain.children], inner, leader)
            if depth == at:
                counts.slc[domain.path] = counts.pod[domain.path] // slicing.size
                counts.slc_wl[domain.path] = counts.pod_wl[domain.path] // slicing.size


def _parent(
    counts: Counts, path: DomainPath, children: list[DomainPath], inner: int | None, leader: bool
) -> None:
    pods = slices = lead = 0
    pod_penalty = slice_penalty = None
    for child in children:
        pod, pod_wl = counts.pod[child], counts.pod_wl[child]
        if inner is not None:
            pod, pod_wl = pod // inner * inner, pod_wl // inner * inner
        pods += pod
        slices += counts.slc[child]
        if not leader or counts.lead[child] > 0:
            pod_penalty = min(pod - pod_wl, pod_penalty if pod_penalty is not None else pod - pod_wl)
            gap = counts.slc[child] - counts.slc_wl[child]
            slice_penalty = min(gap, slice_penalty if slice_penalty is not None else gap)
        lead = max(lead, counts.lead[child])
    counts.pod[path], counts.slc[path], counts.lead[path] = pods, slices, lead
    counts.pod_wl[path] = 0 if pod_penalty is None else pods - pod_penalty
    counts.slc_wl[path] = 0 if slice_penalty is None else slices - slice_penalty


def _selected(tree: TasTree, path: DomainPath, selector: Sequence[tuple[str, str]]) -> bool:
    return all(all(item in node.labels for item in selector) for node in tree.nodes.get(path, ()))


def _affine(tree: TasTree, path: DomainPath, terms: Sequence[Sequence[NodeRequirement]]) -> bool:
    return all(affinity_matches(terms, dict(node.labels)) for node in tree.nodes.get(path, ()))


def _untolerated(
    tree: TasTree, path: DomainPath, tolerations: Sequence[FilterToleration]
) -> FilterTaint | None:
    for node in tree.nodes.get(path, ()):
        if (taint := untolerated(node.taints, tolerations)) is not None:
            return taint
    return None
