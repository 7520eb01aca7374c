"""Phase 2 of Kueue v0.19's TAS (S3): choose the level and domains, then descend to the leaves.

- required: the smallest domain at the level that holds every pod (BestFit; ties by path);
  never escalates, and fails with the largest domain's count.
- preferred: as required, else one level up, repeatedly; at the top level domains are taken
  greedily in BestFit order, the last one being the smallest that holds the rest.
- unconstrained: the lowest level in LeastFreeCapacity order (fewest free pods first).
Descending, the children of every chosen domain are pooled, sorted, and filled the same way.
Where SPEC §9's prose and the recorded Kueue vectors differ, the vectors win (tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from taugen.simulate.counts import Exclusions, fill_counts
from taugen.simulate.tree import Domain, DomainPath, Resources, TasTree, Toleration

Mode = Literal["required", "preferred", "unconstrained"]


@dataclass(frozen=True)
class PodRequest:
    count: int
    per_pod: Resources  # integer base units; cpu in millicores
    mode: Mode
    level: str | None = None  # ignored when unconstrained (the lowest level is used)
    tolerations: tuple[Toleration, ...] = ()
    selector: tuple[tuple[str, str], ...] = ()  # the pod's node selector (host leaves only)


@dataclass(frozen=True)
class Placed:
    path: DomainPath  # the leaf's full path (host included when the host is a level)
    count: int


@dataclass(frozen=True)
class Assignment:
    levels: tuple[str, ...]  # Kueue's TopologyAssignment.levels: the host only, or every level
    domains: tuple[Placed, ...]  # sorted by path


@dataclass(frozen=True)
class NoFit:
    reason: str  # Kueue's failure message, word for word


def find_assignment(
    tree: TasTree, request: PodRequest, free: Mapping[DomainPath, Resources], within: DomainPath | None = None
) -> Assignment | NoFit:
    if request.mode != "unconstrained" and request.level not in tree.levels:
        return NoFit(f"no requested topology level: {request.level}")
    index = (
        len(tree.levels) - 1 if request.mode == "unconstrained" else tree.levels.index(request.level or "")
    )
    state, stats = fill_counts(tree, request.per_pod, free, request.tolerations, within, request.selector)
    fit = _Fit(tree, state, stats, request).level(index)
    if isinstance(fit, NoFit):
        return fit
    depth, chosen = fit
    lfc = request.mode == "unconstrained"
    placed = _minimum(_sorted(chosen, state, lfc), request.count, state, lfc)
    for _ in range(depth, len(tree.levels) - 1):
        pooled = [c for d, _n in placed for c in d.children]
        placed = _minimum(_sorted(pooled, state, lfc), request.count, state, lfc)
    leaves = sorted((d.path, n) for d, n in placed if n > 0)
    levels = tree.levels[-1:] if tree.host_leaves else tree.levels
    return Assignment(levels, tuple(Placed(p, n) for p, n in leaves))


@dataclass(frozen=True)
class _Fit:
    tree: TasTree
    state: dict[DomainPath, int]
    stats: Exclusions
    request: PodRequest

    def level(self, index: int) -> tuple[int, list[Domain]] | NoFit:
        domains = self.tree.per_level[index] if self.tree.per_level else ()
        if not domains:
            return NoFit(f"no topology domains at level: {self.tree.levels[index]}")
        count, lfc, state = self.request.count, self.request.mode == "unconstrained", self.state
        ordered = _sorted(domains, state, lfc)
        if lfc:
            return next(((index, [d]) for d in ordered if state[d.path] >= count), None) or self._greedy(
                index, ordered
            )
        top = _best_fit(ordered, count, state) if state[ordered[0].path] >= count else ordered[0]
        if state[top.path] >= count:
            return index, [top]
        if self.request.mode == "required":
            return self.no_fit(state[top.path])
        if index > 0:
            return self.level(index - 1)
        return self._greedy(index, ordered)

    def _greedy(self, index: int, ordered: Sequence[Domain]) -> tuple[int, list[Domain]] | NoFit:
        chosen: list[Domain] = []
        remaining, lfc = self.request.count, self.request.mode == "unconstrained"
        for i, domain in enumerate(ordered):
            if remaining <= 0:
                break
            if not lfc and self.state[domain.path] >= remaining:
                domain = _best_fit(ordered[i:], remaining, self.state)
            chosen.append(domain)
            remaining -= self.state[domain.path]
        if remaining > 0:
            return self.no_fit(self.request.count - remaining)
        return index, chosen

    def no_fit(self, fits: int) -> NoFit:
        name, total = self.tree.name, self.request.count
        if fits == 0:
            head = f'topology "{name}" doesn\'t allow to fit any of {total} pod(s)'
        else:
            head = f'topology "{name}" allows to fit only {fits} out of {total} pod(s)'
        return NoFit(head + self.stats.suffix())


def _sorted(domains: Sequence[Domain], state: Mapping[DomainPath, int], lfc: bool) -> list[Domain]:
    """BestFit: most pods first; LeastFreeCapacity: fewest first; then by path."""
    sign = 1 if lfc else -1
    return sorted(domains, key=lambda d: (sign * state[d.path], d.path))


def _best_fit(ordered: Sequence[Domain], needed: int, state: Mapping[DomainPath, int]) -> Domain:
    """The first domain with the fewest pods that still holds `needed` (else the first)."""
    best = ordered[0]
    for domain in ordered:
        if needed <= state[domain.path] < state[best.path]:
            best = domain
    return best


def _minimum(
    ordered: Sequence[Domain], count: int, state: Mapping[DomainPath, int], lfc: bool
) -> list[tuple[Domain, int]]:
    """Kueue's updateCountsToMinimum: fill in order; the last domain is the smallest that fits."""
    placed: list[tuple[Domain, int]] = []
    remaining = count
    for i, domain in enumerate(ordered):
        if not lfc and state[domain.path] >= remaining:
            domain = _best_fit(ordered[i:], remaining, state)
        if state[domain.path] >= remaining:
            placed.append((domain, remaining))
            return placed
        placed.append((domain, state[domain.path]))
        remaining -= state[domain.path]
    return placed
