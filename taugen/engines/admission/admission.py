"""Does a run's quota fit its ClusterQueue (S2, T8)? Kueue's flavor assigner, per flavor and
resource (v0.19 pkg/scheduler/flavorassigner, fitsResourceQuota): it fits when the request is
within what the queue may still use (its nominal quota, then what it may borrow from the
cohort); it may preempt when it is within what the queue could ever use and either within
its nominal quota, or the queue may reclaim in the cohort, or borrowWithinCohort allows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from taugen.engines.admission.model import SimRun
from taugen.schedulers.kueue.quota import Node, QuotaTree, available, potential
from taugen.schedulers.kueue.quota_model import FlavorResource
from taugen.schedulers.kueue.units import shown


@dataclass(frozen=True)
class Short:
    """The run does not fit as things are: `need` are the flavor-resources that could fit
    after preemption (empty: none can), `reason` says why it is pending when no run is preempted."""

    reason: str
    need: frozenset[FlavorResource] = frozenset()
    candidates: bool = True  # False: it may preempt, but no admitted run is a candidate (cycle.py)


def usage_of(run: SimRun) -> dict[FlavorResource, int]:
    """By resource name, then pod set order (R47: each pod set's on its own flavor)."""
    found = run.usage()
    return {fr: found[fr] for fr in sorted(found, key=lambda fr: fr[1]) if found[fr] > 0}


def check_quota(tree: QuotaTree, run: SimRun, preempts: bool, fair: bool = False) -> Short | None:
    """None when the run's whole request fits now. Else the first short resource (by name)
    gives the reason; `need` is empty when preemption cannot help on some resource. `fair`:
    Kueue runs with fair sharing (R49), where a queue that may reclaim may preempt while borrowing."""
    node = tree.queues[run.queue]
    need: set[FlavorResource] = set()
    reason: str | None = None
    for fr, amount in usage_of(run).items():
        left = max(0, available(node, fr))
        if amount <= left:
            continue
        why = _reason(node, fr, amount, left, preempts, fair)
        if not (preempts and amount <= potential(node, fr) and _may_preempt(node, fr, amount, fair)):
            return Short(why)
        need.add(fr)
        reason = reason or why
    return None if reason is None else Short(reason, frozenset(need))


def _may_preempt(node: Node, fr: FlavorResource, amount: int, fair: bool = False) -> bool:
    """Kueue's canPreemptWhileBorrowing: borrowWithinCohort, or with fair sharing any
    reclaimWithinCohort but Never."""
    assert node.queue is not None
    policy = node.queue.preemption
    while_borrowing = policy.borrow_within_cohort != "Never" or (
        fair and policy.reclaim_within_cohort != "Never"
    )
    return node.nominal(fr) >= amount or may_reclaim(node, fr, amount) or while_borrowing


def may_reclaim(node: Node, fr: FlavorResource, amount: int) -> bool:
    """Kueue's FindHeightOfLowestSubtreeThatFits, its second answer."""
    if not node.borrowing_with(fr, amount) or node.parent is None:
        return node.parent is not None
    remaining = amount - node.local_available(fr)
    for ancestor in node.ancestors():
        if not ancestor.borrowing_with(fr, remaining):
            return ancestor.parent is not None
        remaining -= ancestor.local_available(fr)
    return False


def borrow_height(tree: QuotaTree, run: SimRun) -> int:
    """How far up the cohort tree the run's request must borrow (0: within nominal quota);
    Kueue admits the entries of a cycle that do not borrow first."""
    node = tree.queues.get(run.queue)
    if node is None or node.parent is None:
        return 0
    return max((_height(node, fr, v) for fr, v in usage_of(run).items()), default=0)


def _height(node: Node, fr: FlavorResource, amount: int) -> int:
    """Kueue's FindHeightOfLowestSubtreeThatFits: the height of the lowest Cohort whose
    subtree holds the request; none does: the root's height."""
    if not node.borrowing_with(fr, amount):
        return 0
    remaining = amount - node.local_available(fr)
    root = node
    for root in node.ancestors():
        if not root.borrowing_with(fr, remaining):
            return root.height()
        remaining -= root.local_available(fr)
    return root.height()


def _reason(
    node: Node, fr: FlavorResource, amount: int, left: int, preempts: bool, fair: bool = False
) -> str:
    flavor, resource = fr
    if fr not in node.quotas:
        queue = f"ClusterQueue {node.name}" if node.name else "the ClusterQueue"
        return f"quota: {resource} is not covered by {queue} (flavor {flavor})"
    head = f"quota: {resource} in flavor {flavor}: the run requests {shown(resource, amount)}"
    if node.parent is None:
        return f"{head}, {shown(resource, left)} of the nominal {shown(resource, node.nominal(fr))} is unused"
    most = potential(node, fr)
    where = (
        f"ClusterQueue {node.name} (nominal {shown(resource, node.nominal(fr))}, cohort {node.parent.name})"
    )
    if amount > most:
        return f"{head}, more than {where} can ever use: {shown(resource, most)} with borrowing"
    tail = "no admitted run may be preempted for it" if preempts else "no preemption"
    if preempts and fair:  # R49: the fair-sharing strategies found no victim
        tail = "fair sharing preempts no admitted run for it"
    return f"{head}, {shown(resource, left)} is free to {where}; {tail}"
