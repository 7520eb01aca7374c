"""Kueue's fair sharing, its shares and its order (R49, R52; v0.19.2
pkg/cache/scheduler/fair_sharing.go, pkg/scheduler/fair_sharing_iterator.go).

A node's dominant resource share (DRS) is, over the resources it borrows past its subtree
quota, the largest ratio of what it borrows (summed over flavors, per resource name) to what
its parent could ever lend it (potentialAvailable, summed over the root's flavors), times
1000, divided by the node's fairSharing.weight. A root, or a node that borrows nothing, has
share 0; a node of weight 0 that borrows has an infinite share (two such compare by ratio).

With fair sharing on, a scheduling cycle takes its heads one at a time: a head whose
ClusterQueue has no cohort as it comes; else the winner of a tournament over its root cohort,
each cohort picking among its children's candidates the one that, admitted, leaves that
child (a ClusterQueue or a cohort) least favoured: first one whose subtree would not borrow
on the flavor-resources the head requests (FairSharingPrioritizeNonBorrowing, on by default),
then the lower share, then the higher priority (PrioritySortingWithinCohort, on by default),
then the earlier creation. Shares are computed again before each pick, on the usage that the
heads already processed in the cycle left. Where Kueue leaves an order open (which root
cohort first, children with equal answers) taugen takes the queue or run name.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from taugen.engines.admission.admission import usage_of
from taugen.engines.admission.model import SimRun
from taugen.schedulers.kueue.quota import Node, QuotaTree, Usage, potential
from taugen.schedulers.kueue.quota_model import FlavorResource


@dataclass(frozen=True)
class Share:
    """Kueue's DRS of one node."""

    weight: float
    ratio: float  # unweighted, per mille of what the parent could lend; -1: below any share
    borrowing: bool = False
    borrowed: frozenset[FlavorResource] = frozenset()

    @property
    def value(self) -> float:
        """PreciseWeightedShare: the ratio over the weight; infinite for weight 0."""
        if self.ratio == 0:
            return 0.0
        return math.inf if self.weight == 0 else self.ratio / self.weight

    @property
    def zero_weight_borrows(self) -> bool:
        return self.weight == 0 and self.ratio != 0

    def borrows_on(self, requested: Usage) -> bool:
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed)


BELOW_ANY = Share(1.0, -1.0)  # Kueue's NegativeDRS: where a search for the highest starts


def compare(a: Share, b: Share) -> int:
    """Kueue's CompareDRS: -1 when a is the lower share."""
    if a.zero_weight_borrows and b.zero_weight_borrows:
        return _cmp(a.ratio, b.ratio)
    if a.zero_weight_borrows:
        return 1
    if b.zero_weight_borrows:
        return -1
    return _cmp(a.value, b.value)


def _cmp(a: float, b: float) -> int:
    return (a > b) - (a < b)


def share(node: Node) -> Share:
    """Kueue's dominantResourceShare of a ClusterQueue or cohort, on its usage now."""
    if node.parent is None:
        return Share(node.weight, 0.0)
    borrowed: dict[str, int] = {}
    frs: list[FlavorResource] = []
    for fr, quota in sorted(node.subtree.items()):
        over = node.usage.get(fr, 0) - quota
        if over > 0:
            borrowed[fr[1]] = borrowed.get(fr[1], 0) + over
            frs.append(fr)
    if not borrowed:
        return Share(node.weight, 0.0)
    lendable = _lendable(node.parent)
    ratio, dominant = 0.0, ""
    for resource, amount in borrowed.items():
        lend = lendable.get(resource, 0)
        if lend > 0:
            found = amount * 1000.0 / lend
            if found > ratio or (found == ratio and resource < dominant):
                ratio, dominant = found, resource
    return Share(node.weight, ratio, True, frozenset(frs))


def _lendable(node: Node) -> dict[str, int]:
    root = root_of(node)
    found: dict[str, int] = {}
    for fr in root.subtree:
        found[fr[1]] = found.get(fr[1], 0) + potential(node, fr)
    return found


def root_of(node: Node) -> Node:
    for ancestor in node.ancestors():
        node = ancestor
    return node


@dataclass
class FairOrder:
    """The order of a cycle's heads with fair sharing on: `pick` the next among those left."""

    tree: QuotaTree

    def pick(self, heads: Sequence[SimRun]) -> SimRun:
        first = min(heads, key=lambda r: (r.queue, r.key))
        node = self.tree.queues.get(first.queue)
        if node is None or node.parent is None:
            return first
        root = root_of(node)
        entries = {r.queue: r for r in heads if r.queue in self.tree.queues}
        shares = self._shares(root, entries)
        winner = self._tournament(root, entries, shares)
        assert winner is not None  # `first` is in the root's subtree
        return winner

    def _shares(self, root: Node, entries: dict[str, SimRun]) -> dict[tuple[int, str], Share]:
        """Kueue's computeDRS: per (cohort, head), the share of the cohort's child on the head's
        path with the head admitted."""
        found: dict[tuple[int, str], Share] = {}
        for queue in _queues(root):
            run = entries.get(queue.name)
            if run is None:
                continue
            usage = usage_of(run)
            self.tree.add(queue.name, usage)
            child = queue
            for ancestor in queue.ancestors():
                found[(id(ancestor), run.key)] = share(child)
                child = ancestor
            self.tree.add(queue.name, usage, sign=-1)
        return found

    def _tournament(
        self, cohort: Node, entries: dict[str, SimRun], shares: dict[tuple[int, str], Share]
    ) -> SimRun | None:
        candidates = [
            found
            for child in cohort.children
            if child.queue is None and (found := self._tournament(child, entries, shares)) is not None
        ]
        candidates += [entries[c.name] for c in cohort.children if c.queue is not None and c.name in entries]
        if not candidates:
            return None
        return min(candidates, key=lambda r: self._rank(r, shares[(id(cohort), r.key)]))

    @staticmethod
    def _rank(run: SimRun, found: Share) -> tuple[bool, _Ordered, int, str, str]:
        return (found.borrows_on(usage_of(run)), _Ordered(found), -run.priority, run.created, run.key)


@dataclass(frozen=True)
class _Ordered:
    """A share ordered as CompareDRS orders it (so that `min` takes the lowest)."""

    found: Share

    def __lt__(self, other: _Ordered) -> bool:
        return compare(self.found, other.found) < 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ordered) and compare(self.found, other.found) == 0

    def __hash__(self) -> int:
        return 0


def _queues(node: Node) -> Iterator[Node]:
    """Every ClusterQueue of the subtree (Kueue's SubtreeClusterQueues)."""
    for child in node.children:
        if child.queue is not None:
            yield child
        else:
            yield from _queues(child)
