"""Quota as Kueue's resource tree holds it (T8): ClusterQueues and Cohorts, per flavor and
resource, with borrowing and lending limits (Kueue v0.19 pkg/cache/scheduler/resource_node.go).

A node's subtree quota is its own nominal quota plus what its children lend it (their subtree
minus the part a lending limit keeps local). Usage past a node's local part is stored in its
parent, so a Cohort's usage is what its members borrow from it. A ClusterQueue outside any
cohort is a root: it may use exactly its nominal quota (S2).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from taugen.schedulers.kueue.quota_model import FlavorResource, Quota, SimCohort, SimQueue

Usage = Mapping[FlavorResource, int]


@dataclass(eq=False)
class Node:
    name: str
    quotas: Mapping[FlavorResource, Quota]
    queue: SimQueue | None = None  # None: a Cohort
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    subtree: dict[FlavorResource, int] = field(default_factory=dict)
    usage: dict[FlavorResource, int] = field(default_factory=dict)
    weight: float = 1.0  # fairSharing.weight (Kueue's DRS divides by it; 0: an infinite share)

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def nominal(self, fr: FlavorResource) -> int:
        quota = self.quotas.get(fr)
        return quota.nominal if quota else 0

    def local_quota(self, fr: FlavorResource) -> int:
        """The part a lending limit keeps for this subtree: never lent to the parent."""
        quota = self.quotas.get(fr)
        if quota is None or quota.lending_limit is None:
            return 0
        return max(0, self.subtree.get(fr, 0) - quota.lending_limit)

    def local_available(self, fr: FlavorResource) -> int:
        return max(0, self.local_quota(fr) - self.usage.get(fr, 0))

    def borrowing_with(self, fr: FlavorResource, amount: int) -> bool:
        """Kueue's BorrowingWith: a ClusterQueue past its nominal quota, a Cohort past its
        subtree quota (its own plus what its members lend it)."""
        limit = self.nominal(fr) if self.queue is not None else self.subtree.get(fr, 0)
        return limit < self.usage.get(fr, 0) + amount

    def height(self) -> int:
        """Kueue's getNodeHeight: 1 for a Cohort with members, one more per level of child
        Cohorts below it (how far a run borrows, which orders a scheduling cycle)."""
        found = min(len(self.children), 1)
        for child in self.children:
            if child.queue is None:
                found = max(found, child.height() + 1)
        return found

    def within_nominal(self, frs: frozenset[FlavorResource]) -> bool:
        return all(self.subtree.get(fr, 0) >= self.usage.get(fr, 0) for fr in frs)


def available(node: Node, fr: FlavorResource) -> int:
    """What the node may still use: its local part, then its parent's, capped by its
    borrowing limit. Negative when over-admitted."""
    if node.parent is None:
        return node.subtree.get(fr, 0) - node.usage.get(fr, 0)
    from_parent = available(node.parent, fr)
    quota = node.quotas.get(fr)
    if quota is not None and quota.borrowing_limit is not None:
        local = node.local_quota(fr)
        stored = node.subtree.get(fr, 0) - local
        used = max(0, node.usage.get(fr, 0) - local)
        from_parent = min(stored - used + quota.borrowing_limit, from_parent)
    return node.local_available(fr) + from_parent


def potential(node: Node, fr: FlavorResource) -> int:
    """The most the node could use with nothing else admitted (Kueue's potentialAvailable)."""
    if node.parent is None:
        return node.subtree.get(fr, 0)
    found = node.local_quota(fr) + potential(node.parent, fr)
    quota = node.quotas.get(fr)
    if quota is not None and quota.borrowing_limit is not None:
        found = min(node.subtree.get(fr, 0) + quota.borrowing_limit, found)
    return found


def add_usage(node: Node, fr: FlavorResource, amount: int) -> None:
    local = node.local_available(fr)
    node.usage[fr] = node.usage.get(fr, 0) + amount
    if node.parent is not None and amount > local:
        add_usage(node.parent, fr, amount - local)


def remove_usage(node: Node, fr: FlavorResource, amount: int) -> None:
    stored = node.usage.get(fr, 0) - node.local_quota(fr)
    node.usage[fr] = node.usage.get(fr, 0) - amount
    if stored > 0 and node.parent is not None:
        remove_usage(node.parent, fr, min(amount, stored))


@dataclass
class QuotaTree:
    queues: dict[str, Node]
    cohorts: dict[str, Node]

    @classmethod
    def of(cls, queues: tuple[SimQueue, ...], cohorts: tuple[SimCohort, ...]) -> QuotaTree:
        """A Cohort named only by a cohortName (no Cohort object) exists with no quota, as in Kueue."""
        tree = cls({q.name: Node(q.name, q.quotas, q, weight=q.weight) for q in queues}, {})
        for cohort in cohorts:
            tree.cohorts[cohort.name] = Node(cohort.name, cohort.quotas, weight=cohort.weight)
        for queue in queues:
            if queue.cohort is not None:
                tree.link(tree.queues[queue.name], queue.cohort)
        for cohort in cohorts:
            if cohort.parent is not None:
                tree.link(tree.cohorts[cohort.name], cohort.parent)
        for root in [*tree.queues.values(), *tree.cohorts.values()]:
            if root.parent is None:
                _sum_subtree(root)
        return tree

    def link(self, child: Node, parent: str) -> None:
        child.parent = self.cohorts.setdefault(parent, Node(parent, {}))
        child.parent.children.append(child)

    def add(self, queue: str, usage: Usage, sign: int = 1) -> None:
        node = self.queues[queue]
        for fr, amount in sorted(usage.items()):
            (add_usage if sign > 0 else remove_usage)(node, fr, amount)

    def fits(self, queue: str, usage: Usage) -> bool:
        node = self.queues[queue]
        return all(amount <= max(0, available(node, fr)) for fr, amount in usage.items())


def _sum_subtree(node: Node) -> None:
    node.subtree = {fr: q.nominal for fr, q in node.quotas.items()}
    for child in node.children:
        _sum_subtree(child)
        for fr, amount in child.subtree.items():
            node.subtree[fr] = node.subtree.get(fr, 0) + amount - child.local_quota(fr)
