"""Kueue's fair-sharing preemption (R49, R52; v0.19.2 pkg/scheduler/preemption/preemption.go
fairPreemptions, pkg/scheduler/preemption/fairsharing/).

Candidates: the preemptor's own ClusterQueue's workloads its withinClusterQueue allows, and,
unless reclaimWithinCohort is Never, those it allows in every ClusterQueue of the root cohort
that borrows on a flavor-resource the preemptor needs; borrowWithinCohort is not read. They
are sorted as classical preemption sorts them, and the preemptor's usage is added to its queue.

Target queues come from the cohort tree: from the root, the child with the highest share that
still borrows (the preemptor's own queue, and the cohorts above it, stay while they have
candidates), down to a ClusterQueue. The preemptor's own queue yields its candidates in order
(InClusterQueue). When the preemptor's queue stays within its nominal quota on what it needs
(FairSharingPreemptWithinNominal, on by default), any target's next candidate is taken
(InCohortReclamation). Else the first strategy decides, comparing the shares of the two
children of the lowest common cohort (almost-LCAs): LessThanOrEqualToFinalShare, the
preemptor's share with the workload <= the target's share without the candidate;
LessThanInitialShare, the preemptor's share < the target's share as it is (InCohortFairSharing).
After one taken candidate the target queue is chosen again. Candidates the first strategy
passed over go to the second, when there is one: LessThanInitialShare, once per queue.
Candidates are taken until the preemptor fits (it may borrow); then each but the last is put
back while it still fits. Nothing fits: no victim. The quota tree is restored before returning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from taugen.engines.admission.fair import BELOW_ANY, Share, compare, root_of, share
from taugen.engines.admission.model import Victim
from taugen.engines.admission.preemption import Holder, Preemptor, holder_order, satisfies
from taugen.schedulers.kueue.quota import Node, QuotaTree, available

FIRST_STRATEGY = {
    "LessThanOrEqualToFinalShare": lambda new, old, final: compare(new, final) <= 0,
    "LessThanInitialShare": lambda new, old, final: compare(new, old) < 0,
}
Fits = Callable[[Sequence[Holder]], bool]


@dataclass
class _Ordering:
    """Kueue's TargetClusterQueueOrdering over the candidates of each ClusterQueue."""

    tree: QuotaTree
    cq: Node
    by_queue: dict[str, list[Holder]]
    pruned: set[int] = field(default_factory=set)  # ids of ClusterQueues and cohorts

    def __post_init__(self) -> None:
        self.ancestors = {id(a) for a in self.cq.ancestors()}

    def targets(self) -> Iterator[Node]:
        if self.cq.parent is None:
            while id(self.cq) not in self.pruned and self.has(self.cq):
                yield self.cq
            return
        root = root_of(self.cq)
        while id(root) not in self.pruned:
            found = self._next(root)
            if found is not None:
                yield found

    def has(self, node: Node) -> bool:
        return bool(self.by_queue.get(node.name))

    def pop(self, node: Node) -> Holder:
        return self.by_queue[node.name].pop(0)

    def drop(self, node: Node) -> None:
        self.pruned.add(id(node))

    def _next(self, cohort: Node) -> Node | None:
        best_cq, best_cq_share = None, BELOW_ANY
        for cq in (c for c in cohort.children if c.queue is not None and id(c) not in self.pruned):
            found = share(cq)
            if (not found.borrowing and cq is not self.cq) or not self.has(cq):
                self.pruned.add(id(cq))
            elif best_cq is not None and compare(found, best_cq_share) == 0:
                if _before(self.by_queue[cq.name][0], self.by_queue[best_cq.name][0], self.cq.name):
                    best_cq = cq
            elif compare(found, best_cq_share) == 1:
                best_cq, best_cq_share = cq, found
        best_cohort, best_cohort_share = None, BELOW_ANY
        for child in (c for c in cohort.children if c.queue is None and id(c) not in self.pruned):
            found = share(child)
            if not found.borrowing and id(child) not in self.ancestors:
                self.pruned.add(id(child))
            elif compare(found, best_cohort_share) >= 0:
                best_cohort, best_cohort_share = child, found
        if best_cohort is None and best_cq is None:
            self.pruned.add(id(cohort))
            return None
        if best_cohort is not None and compare(best_cohort_share, best_cq_share) >= 0:
            return self._next(best_cohort)
        return best_cq

    def shares(self, target: Node) -> tuple[Share, Share]:
        """(the preemptor's almost-LCA share, the target's), Kueue's ComputeShares."""
        lca = next(a for a in target.ancestors() if id(a) in self.ancestors)
        return share(_almost(self.cq, lca)), share(_almost(target, lca))

    def share_without(self, target: Node, holder: Holder) -> Share:
        self.tree.add(holder.queue, holder.usage, sign=-1)
        lca = next(a for a in target.ancestors() if id(a) in self.ancestors)
        found = share(_almost(target, lca))
        self.tree.add(holder.queue, holder.usage)
        return found


def _almost(node: Node, lca: Node) -> Node:
    for ancestor in node.ancestors():
        if ancestor is lca:
            return node
        node = ancestor
    raise AssertionError("the lowest common cohort is not above the ClusterQueue")


def _before(a: Holder, b: Holder, queue: str) -> bool:
    return holder_order(a, queue) < holder_order(b, queue)


def fair_victims(
    tree: QuotaTree, wl: Preemptor, admitted: Sequence[Holder], also_fits: Fits, strategies: Sequence[str]
) -> tuple[Victim, ...]:
    """The workloads fair sharing preempts so that `wl` fits; () when it finds none."""
    cq = tree.queues[wl.queue]
    candidates = sorted(_candidates(tree, cq, wl, admitted), key=lambda h: holder_order(h, cq.name))
    if not candidates:
        return ()
    tree.add(wl.queue, wl.usage)
    search = _Search(tree, cq, wl, also_fits)
    fits, retry = search.first(candidates, FIRST_STRATEGY[strategies[0]])
    if not fits and len(strategies) > 1:
        fits = search.second(retry)
    tree.add(wl.queue, wl.usage, sign=-1)
    targets = search.targets
    if fits:
        targets = search.fill_back()
    for holder, _ in targets:
        tree.add(holder.queue, holder.usage)
    return tuple(Victim(h.key, reason) for h, reason in targets) if fits else ()


def _candidates(tree: QuotaTree, cq: Node, wl: Preemptor, admitted: Sequence[Holder]) -> list[Holder]:
    """Kueue's findCandidates: the policies allow them and they use what the preemptor needs."""
    assert cq.queue is not None
    policy = cq.queue.preemption

    def uses(holder: Holder) -> bool:
        return any(fr in wl.need and amount > 0 for fr, amount in holder.usage.items())

    found: list[Holder] = []
    if policy.within_cluster_queue != "Never":
        found += [
            h
            for h in admitted
            if h.queue == cq.name and uses(h) and satisfies(policy.within_cluster_queue, wl, h)
        ]
    if cq.parent is not None and policy.reclaim_within_cohort != "Never":
        borrowing = {
            q.name
            for q in tree.queues.values()
            if q is not cq
            and q.parent is not None
            and root_of(q) is root_of(cq)
            and any(q.borrowing_with(fr, 0) for fr in wl.need)
        }
        found += [
            h
            for h in admitted
            if h.queue in borrowing and uses(h) and satisfies(policy.reclaim_within_cohort, wl, h)
        ]
    return found


@dataclass
class _Search:
    tree: QuotaTree
    cq: Node
    wl: Preemptor
    also_fits: Fits
    targets: list[tuple[Holder, str]] = field(default_factory=list)

    def first(
        self, candidates: list[Holder], strategy: Callable[[Share, Share, Share], bool]
    ) -> tuple[bool, list[Holder]]:
        """Kueue's runFirstFsStrategy: (fits, the candidates left for the second strategy)."""
        ordering = _Ordering(self.tree, self.cq, _by_queue(candidates))
        within = all(not self.cq.borrowing_with(fr, 0) for fr in self.wl.need)
        retry: list[Holder] = []
        for target in ordering.targets():
            if target is self.cq or within:
                reason = "InClusterQueue" if target is self.cq else "InCohortReclamation"
                if self._take(ordering.pop(target), reason):
                    return True, []
                continue
            new, old = ordering.shares(target)
            if new.value == float("inf") and old.value != float("inf"):
                while ordering.has(target):  # no candidate of this queue can pass
                    retry.append(ordering.pop(target))
                continue
            while ordering.has(target):
                holder = ordering.pop(target)
                if strategy(new, old, ordering.share_without(target, holder)):
                    if self._take(holder, "InCohortFairSharing"):
                        return True, []
                    break  # the shares changed: choose the target queue again
                retry.append(holder)
        return False, retry

    def second(self, retry: list[Holder]) -> bool:
        """Kueue's runSecondFsStrategy (rule S2-b): LessThanInitialShare, once per queue."""
        ordering = _Ordering(self.tree, self.cq, _by_queue(retry))
        for target in ordering.targets():
            new, old = ordering.shares(target)
            holder = ordering.pop(target)
            if compare(new, old) < 0 and self._take(holder, "InCohortFairSharing"):
                return True
            ordering.drop(target)
        return False

    def _take(self, holder: Holder, reason: str) -> bool:
        """Preempt `holder` in the tree; True when the preemptor now fits."""
        self.tree.add(holder.queue, holder.usage, sign=-1)
        self.targets.append((holder, reason))
        self.tree.add(self.wl.queue, self.wl.usage, sign=-1)
        fits = self._fits(self.targets)
        self.tree.add(self.wl.queue, self.wl.usage)
        return fits

    def _fits(self, targets: Sequence[tuple[Holder, str]]) -> bool:
        """Kueue's workloadFits with borrowing allowed (the preemptor's usage not added)."""
        if any(amount > max(0, available(self.cq, fr)) for fr, amount in self.wl.usage.items()):
            return False
        return self.also_fits([h for h, _ in targets])

    def fill_back(self) -> list[tuple[Holder, str]]:
        """Kueue's fillBackWorkloads: each target but the last goes back while the preemptor fits."""
        targets = self.targets
        for index in range(len(targets) - 2, -1, -1):
            holder = targets[index][0]
            self.tree.add(holder.queue, holder.usage)
            rest = targets[:index] + targets[index + 1 :]
            if self._fits(rest):
                targets[index] = targets[-1]
                targets.pop()
            else:
                self.tree.add(holder.queue, holder.usage, sign=-1)
        return targets


def _by_queue(holders: Sequence[Holder]) -> dict[str, list[Holder]]:
    found: dict[str, list[Holder]] = {}
    for holder in holders:
        found.setdefault(holder.queue, []).append(holder)
    return found
