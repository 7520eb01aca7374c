"""Phase 2 of Kueue v0.19.2's TAS (S3): choose the level and domains, then descend to the leaves
(findTopologyAssignment, findLevelWithFitDomains).

- required: the smallest domain at the level that holds every slice (BestFit; ties by path);
  never escalates, and fails with the best domain's count.
- preferred: as required, else one level up, repeatedly; at the top level domains are taken
  greedily in BestFit order, the last one being the smallest that holds the rest.
- unconstrained: the lowest level in LeastFreeCapacity order (fewest free slices first).
A slice (Kueue's podset-slice-required-topology + podset-slice-size) is `size` pods in one
domain of its level; inner layers (podset-slice-required-topology-constraints) split it again.
A PodSet group (K5: a LeaderWorkerSet replica) places one leader with its own requests and the
workers in the same domains. Where SPEC §9's prose and the recorded Kueue vectors differ, the
vectors win (tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taugen.engines.placement.counts import Counts, Exclusions, Filters, fill_counts
from taugen.engines.placement.descend import Order
from taugen.engines.placement.request import LevelPlan, NoFit, PodRequest, SliceLayer, plan_of
from taugen.engines.placement.tree import DomainPath, Resources, TasDomain, TasTree

__all__ = ["Assignment", "NoFit", "Placed", "PodRequest", "find_assignment"]  # NoFit: request.py's


@dataclass(frozen=True)
class Placed:
    path: DomainPath  # the leaf's full path (host included when the host is a level)
    count: int


@dataclass(frozen=True)
class Assignment:
    levels: tuple[str, ...]  # Kueue's TopologyAssignment.levels: the host only, or every level
    domains: tuple[Placed, ...]  # sorted by path
    leader: tuple[Placed, ...] = ()  # a group's leader: one domain, count 1


def find_assignment(
    tree: TasTree, request: PodRequest, free: Mapping[DomainPath, Resources], within: DomainPath | None = None
) -> Assignment | NoFit:
    plan = plan_of(tree, request)
    if isinstance(plan, NoFit):
        return plan
    filters = Filters(request.tolerations, request.selector, within, request.affinity)
    counts, stats = fill_counts(tree, request.per_pod, free, filters, request.leader, plan.slicing)
    search = _Search(tree, counts, stats, plan, Order(counts, request.mode == "unconstrained"))
    fit = search.level(plan.index)
    if isinstance(fit, NoFit):
        return fit
    return search.descend(*fit)


@dataclass(frozen=True)
class _Search:
    tree: TasTree
    counts: Counts
    stats: Exclusions
    plan: LevelPlan
    order: Order

    def level(self, index: int) -> tuple[int, list[TasDomain]] | NoFit:
        """Kueue's findLevelWithFitDomains."""
        domains = self.tree.per_level[index] if self.tree.per_level else ()
        if not domains:
            return NoFit(f"no topology domains at level: {self.tree.levels[index]}")
        c, order, plan = self.counts, self.order, self.plan
        needed, leaders = plan.slice_count, plan.leaders
        ordered = order.sorted_with_leader(domains)
        top = ordered[0]
        if not order.lfc and c.slc_wl[top.path] >= needed and c.lead[top.path] >= leaders:
            top = order.best_fit(ordered, needed, leaders, c.slc_wl if leaders else c.slc)
        if order.lfc:
            for domain in ordered:
                if leaders and c.lead[domain.path] < leaders:
                    continue
                if (c.slc_wl if leaders else c.slc)[domain.path] >= needed:
                    return index, [domain]
        if c.slc_wl[top.path] >= needed and c.lead[top.path] >= leaders:
            return index, [top]
        if plan.request.mode == "required":
            return self.no_fit(index, c.slc[top.path])
        if index > 0 and not order.lfc:
            return self.level(index - 1)
        return self._greedy(index, ordered)

    def _greedy(self, index: int, ordered: list[TasDomain]) -> tuple[int, list[TasDomain]] | NoFit:
        c, order, plan = self.counts, self.order, self.plan
        needed, leaders = plan.slice_count, plan.leaders
        ordered = order.prioritize_leader(ordered, plan.request.count, leaders, plan.slicing.size, True)
        chosen: list[TasDomain] = []
        remaining, left, i = needed, leaders, 0
        while left > 0 and i < len(ordered) and c.lead[ordered[i].path] > 0:
            domain = ordered[i]
            if not order.lfc and c.slc_wl[domain.path] >= remaining:
                domain = order.best_fit(ordered[i:], remaining, left, c.slc_wl)
            chosen.append(domain)
            left -= c.lead[domain.path]
            remaining -= c.slc_wl[domain.path]
            i += 1
        if left > 0:
            return self.no_fit(index, leaders - left)
        rest = order.sorted(ordered[i:])
        for j, domain in enumerate(rest):
            if remaining <= 0:
                break
            if not order.lfc and c.slc[domain.path] >= remaining:
                domain = order.best_fit(rest[j:], remaining, 0, c.slc)
            chosen.append(domain)
            remaining -= c.slc[domain.path]
        if remaining > 0:
            return self.no_fit(index, needed - remaining)
        return index, chosen

    def descend(self, index: int, chosen: list[TasDomain]) -> Assignment:
        """Phase 2b: down level by level, pooled above the slice level, per parent below it."""
        order, plan, c = self.order, self.plan, self.counts
        count, leaders, size = plan.request.count, plan.leaders, plan.slicing.size
        last = len(self.tree.levels) - 1
        placed = order.minimum(chosen, count, leaders, size, True)
        while index < min(last, plan.slicing.level):
            pooled = order.sorted([child for d in placed for child in d.children])
            placed = order.minimum(pooled, count, leaders, size, True)
            index += 1
        while index < last:
            on_level = plan.slicing.inner.get(index + 1, 1)
            below: list[TasDomain] = []
            for domain in placed:
                children = order.sorted(domain.children)
                if on_level > 1:
                    for child in children:
                        c.slc[child.path] = c.pod[child.path] // on_level
                        c.slc_wl[child.path] = c.pod_wl[child.path] // on_level
                path = domain.path
                below += order.minimum(children, c.pod[path], c.lead[path], on_level, on_level > 1)
            placed = below
            index += 1
        return self._assignment(placed)

    def _assignment(self, placed: list[TasDomain]) -> Assignment:
        c, tree = self.counts, self.tree
        levels = tree.levels[-1:] if tree.host_leaves else tree.levels
        leader: tuple[Placed, ...] = ()
        if self.plan.leaders:
            leader = tuple(Placed(d.path, c.lead[d.path]) for d in placed if c.lead[d.path] > 0)
        workers = tuple(Placed(d.path, c.pod[d.path]) for d in placed if c.pod[d.path] > 0)
        return Assignment(levels, _by_path(workers), _by_path(leader))

    def no_fit(self, index: int, fits: int) -> NoFit:
        layers = self.plan.request.slices
        if len(layers) > 1:
            return NoFit(self._layers_message(index, layers))
        name, total = self.tree.name, self.plan.slice_count
        unit = "pod" if self.plan.slicing.size == 1 else "slice"
        if fits == 0:
            head = f'topology "{name}" doesn\'t allow to fit any of {total} {unit}(s)'
        else:
            head = f'topology "{name}" allows to fit only {fits} out of {total} {unit}(s)'
        return NoFit(head + self.stats.suffix())

    def _layers_message(self, index: int, layers: tuple[SliceLayer, ...]) -> str:
        """Kueue's multiLayerNotFitMessage: per layer, the slices the best domain holds."""
        c, tree = self.counts, self.tree
        text = f'topology "{tree.name}" doesn\'t allow to fit'
        domains = tree.per_level[index]
        best = min(domains, key=lambda d: (-c.slc[d.path], d.path)) if domains else None
        if best is None:
            return text
        for layer in layers:
            target = tree.levels.index(layer.level)
            fits = self._slices_in(best, index, target, layer.size)
            text += f"; {fits}/{self.plan.request.count // layer.size} slice(s) fit on level {layer.level}"
        return text + self.stats.suffix()

    def _slices_in(self, domain: TasDomain, at: int, target: int, size: int) -> int:
        if at == target:
            return self.counts.pod[domain.path] // size
        return sum(self._slices_in(child, at + 1, target, size) for child in domain.children)


def _by_path(placed: tuple[Placed, ...]) -> tuple[Placed, ...]:
    return tuple(sorted(placed, key=lambda p: p.path))
