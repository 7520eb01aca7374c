"""Kueue's classical preemption (T8; v0.19 pkg/scheduler/preemption/preemption.go, classical/).

Candidates: lower-priority workloads of the preemptor's own queue (withinClusterQueue), and
workloads of cohort members that borrow (reclaimWithinCohort; while the preemptor itself
borrows only under borrowWithinCohort). They are ordered as Kueue orders them: other queues
first, lower priority first, newest admitted first. Candidates are removed in that order
until the preemptor fits; then each but the last is put back while it still fits (Kueue's
minimal set). The quota tree is restored before returning: the caller evicts the victims.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from taugen.engines.admission.model import Victim
from taugen.schedulers.kueue.quota import Node, QuotaTree, Usage, available
from taugen.schedulers.kueue.quota_model import FlavorResource

Variant = Literal["InClusterQueue", "InCohortReclamation", "InCohortReclaimWhileBorrowing"]
WITHOUT_BORROWING = "without-borrowing"  # InCohortReclamation, but never while the preemptor borrows


@dataclass(frozen=True)
class Holder:
    """An admitted workload: the quota it holds in its ClusterQueue."""

    key: str
    queue: str
    priority: int
    created: str
    admitted_at: str  # RFC 3339 UTC; "": admitted by this simulation (newer than any given time)
    usage: Usage
    sequence: int = 0  # admitted by this simulation: its place in admission order


@dataclass(frozen=True)
class Candidate:
    holder: Holder
    variant: str  # a Variant, or WITHOUT_BORROWING
    lca: Node | None  # the subtree root it was found under (None: the preemptor's queue)


@dataclass(frozen=True)
class Preemptor:
    queue: str
    priority: int
    created: str
    usage: Usage
    need: frozenset[FlavorResource]  # the flavor-resources that do not fit without preemption


def find_victims(
    tree: QuotaTree,
    wl: Preemptor,
    admitted: Sequence[Holder],
    also_fits: Callable[[Sequence[Holder]], bool],
) -> tuple[Victim, ...]:
    """The fewest workloads to preempt so that `wl` fits; () when none can make room.
    `also_fits(victims)` says whether the workload fits the rest (topology) without them."""
    cq = tree.queues[wl.queue]
    same, hierarchy, lower = _candidates(tree, cq, wl, admitted)
    forbidden = cq.queue is None or cq.queue.preemption.borrow_within_cohort == "Never"
    if (not hierarchy and not lower) or (forbidden and not _under_nominal(cq, wl.need)):
        attempts = [True]
    elif forbidden and not hierarchy:
        attempts = [False, True]
    else:
        attempts = [True, False]
    ordered = hierarchy + lower + same
    for borrow in attempts:
        targets: list[Candidate] = []
        for candidate in ordered:
            if not _valid(tree, cq, candidate, wl.need, borrow):
                continue
            tree.add(candidate.holder.queue, candidate.holder.usage, sign=-1)
            targets.append(candidate)
            if _fits(tree, cq, wl, borrow, targets, also_fits):
                targets = _fill_back(tree, cq, wl, borrow, targets, also_fits)
                _restore(tree, targets)
                return tuple(Victim(t.holder.key, _reason(t.variant)) for t in targets)
        _restore(tree, targets)
    return ()


def _candidates(
    tree: QuotaTree, cq: Node, wl: Preemptor, admitted: Sequence[Holder]
) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
    by_queue: dict[str, list[Holder]] = {}
    for holder in admitted:
        by_queue.setdefault(holder.queue, []).append(holder)
    policy = cq.queue.preemption if cq.queue else None
    same = (
        _from_queue(cq, cq, None, wl, by_queue, False)
        if policy and policy.within_cluster_queue != "Never"
        else []
    )
    hierarchy: list[Candidate] = []
    lower: list[Candidate] = []
    if cq.parent is not None and policy and policy.reclaim_within_cohort != "Never":
        advantage, remaining = _fit_in_quota(cq, wl.usage)
        previous: Node | None = None
        for root in cq.ancestors():
            found = hierarchy if advantage else lower
            _collect(root, root, previous, cq, wl, by_queue, advantage, found)
            fits, remaining = _fit_in_quota(root, remaining)
            advantage = advantage or fits
            previous = root

    def order(found: list[Candidate]) -> list[Candidate]:
        return sorted(found, key=lambda c: _order(c, cq.name))

    return order(same), order(hierarchy), order(lower)


def _collect(
    current: Node,
    root: Node,
    skip: Node | None,
    cq: Node,
    wl: Preemptor,
    by_queue: dict[str, list[Holder]],
    advantage: bool,
    found: list[Candidate],
) -> None:
    for child in current.children:
        if child.queue is None and child is not skip and not child.within_nominal(wl.need):
            _collect(child, root, skip, cq, wl, by_queue, advantage, found)
    for child in current.children:
        if child.queue is not None and child is not cq and not child.within_nominal(wl.need):
            found += _from_queue(child, cq, root, wl, by_queue, advantage)


def _from_queue(
    node: Node, cq: Node, lca: Node | None, wl: Preemptor, by_queue: dict[str, list[Holder]], advantage: bool
) -> list[Candidate]:
    found = []
    for holder in by_queue.get(node.name, []):
        variant = _variant(cq, holder, wl, advantage)
        if variant is not None:
            found.append(Candidate(holder, variant, lca))
    return found


def _variant(cq: Node, holder: Holder, wl: Preemptor, advantage: bool) -> str | None:
    """Kueue's classifyPreemptionVariant; None: never a candidate."""
    assert cq.queue is not None
    policy = cq.queue.preemption
    if not any(fr in wl.need and amount > 0 for fr, amount in holder.usage.items()):
        return None
    own = holder.queue == cq.name
    rule = policy.within_cluster_queue if own else policy.reclaim_within_cohort
    if not satisfies(rule, wl, holder):
        return None
    if own:
        return "InClusterQueue"
    if advantage:
        return "InCohortReclamation"
    if policy.borrow_within_cohort == "Never" or holder.priority >= wl.priority:
        return WITHOUT_BORROWING
    threshold = policy.max_priority_threshold
    if threshold is not None and holder.priority > threshold:
        return WITHOUT_BORROWING
    return "InCohortReclaimWhileBorrowing"


def satisfies(rule: str, wl: Preemptor, holder: Holder) -> bool:
    """Kueue's SatisfiesPreemptionPolicy: `rule` (a withinClusterQueue or reclaimWithinCohort
    value) lets `wl` preempt `holder`."""
    lower = wl.priority > holder.priority
    if rule == "LowerPriority":
        return lower
    if rule == "LowerOrNewerEqualPriority":
        return lower or (wl.priority == holder.priority and wl.created < holder.created)
    return rule == "Any"


def _order(candidate: Candidate, queue: str) -> tuple[bool, int, float, int, str]:
    return holder_order(candidate.holder, queue)


def holder_order(holder: Holder, queue: str) -> tuple[bool, int, float, int, str]:
    """Kueue's CandidatesOrdering: other queues first, lower priority, newest admission first
    (a workload with no admission time counts as admitted now), then the key (Kueue: the UID)."""
    when = datetime.fromisoformat(holder.admitted_at).timestamp() if holder.admitted_at else math.inf
    return (holder.queue == queue, holder.priority, -when, -holder.sequence, holder.key)


def _fit_in_quota(node: Node, usage: Usage) -> tuple[bool, dict[FlavorResource, int]]:
    fits = all(node.subtree.get(fr, 0) >= node.usage.get(fr, 0) + v for fr, v in usage.items())
    return fits, {fr: max(0, v - node.local_available(fr)) for fr, v in usage.items()}


def _under_nominal(cq: Node, need: frozenset[FlavorResource]) -> bool:
    return all(cq.nominal(fr) > cq.usage.get(fr, 0) for fr in need)


def _valid(
    tree: QuotaTree, cq: Node, candidate: Candidate, need: frozenset[FlavorResource], borrow: bool
) -> bool:
    holder = candidate.holder
    if holder.queue == cq.name:
        return True
    if borrow and candidate.variant == WITHOUT_BORROWING:
        return False
    node = tree.queues[holder.queue]
    if node.within_nominal(need):
        return False
    for ancestor in node.ancestors():
        if ancestor is candidate.lca:
            break
        if ancestor.within_nominal(need):
            return False
    return True


def _fits(
    tree: QuotaTree,
    cq: Node,
    wl: Preemptor,
    borrow: bool,
    targets: Sequence[Candidate],
    also_fits: Callable[[Sequence[Holder]], bool],
) -> bool:
    for fr, amount in wl.usage.items():
        if not borrow and cq.borrowing_with(fr, amount):
            return False
        if amount > max(0, available(cq, fr)):
            return False
    return also_fits([t.holder for t in targets])


def _fill_back(
    tree: QuotaTree,
    cq: Node,
    wl: Preemptor,
    borrow: bool,
    targets: list[Candidate],
    also_fits: Callable[[Sequence[Holder]], bool],
) -> list[Candidate]:
    for index in range(len(targets) - 2, -1, -1):
        holder = targets[index].holder
        tree.add(holder.queue, holder.usage)
        rest = targets[:index] + targets[index + 1 :]
        if _fits(tree, cq, wl, borrow, rest, also_fits):
            targets[index] = targets[-1]
            targets.pop()
        else:
            tree.add(holder.queue, holder.usage, sign=-1)
    return targets


def _restore(tree: QuotaTree, targets: Sequence[Candidate]) -> None:
    for target in targets:
        tree.add(target.holder.queue, target.holder.usage)


def _reason(variant: str) -> str:
    return "InCohortReclamation" if variant == WITHOUT_BORROWING else variant
