"""Kueue's flavor assignment across a run's fallback classes (R47, R52; v0.19.2
pkg/scheduler/flavorassigner/flavorassigner.go, assignFlavors and findFlavorForPodSets).

Kueue assigns a flavor per pod set, in order (a JobSet's replicatedJobs may land on different
flavors), each counted on top of what the earlier pod sets of the same workload take of that
flavor. A pod set's flavors are tried in the ClusterQueue's order from the one after its last
tried flavor (scan.py, LastTriedFlavorIdx). Each gets a mode: it fits (at a borrowing level: 0
within the queue's nominal quota, else the height of the lowest cohort that holds it), it fits by
preempting (`reclaim` when every victim is in another queue, else `preempt`), it could by
preempting but no admitted run is a candidate, or it does not fit. The search stops at the first
flavor whose mode `shouldTryNextFlavor` does not pass over (flavorFungibility: whenCanBorrow,
whenCanPreempt); otherwise the best mode seen wins (`isPreferred`: by preemption mode then
borrowing level, or the reverse with preference PreemptionOverBorrowing). A pod set no flavor
fits for fails the workload there; the pod sets after it are not assigned.

Topology is checked after the flavors are chosen, as Kueue does: a run whose flavor's topology
cannot place it stays pending in that cycle and, with flavors left to try, starts at the next
flavor in the next one (scan.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from taugen.engines.admission.admission import Short, borrow_height
from taugen.engines.admission.model import SimPodSet, SimRun, Victim
from taugen.models.node_filters import FilterTaint
from taugen.schedulers.kueue.quota import QuotaTree
from taugen.schedulers.kueue.quota_model import Fungibility

NO_FIT, NO_CANDIDATES, PREEMPT, RECLAIM, FIT = range(5)  # Kueue's preemptionMode, worst first
WORST_LEVEL = 1 << 30


@dataclass(frozen=True)
class Mode:
    """Kueue's granularMode: the preemption mode and the borrowing level."""

    preemption: int
    borrowing: int = 0


WORST = Mode(NO_FIT, WORST_LEVEL)

# What the engine tells of one flavor for the run: None fits, a Short may preempt, a str cannot
Pending = Callable[[SimRun], "str | Short | None"]
Victims = Callable[[SimRun, Short], tuple[Victim, ...]]
BorrowAfter = Callable[[SimRun, tuple[Victim, ...]], int]  # the borrowing level once they are gone


@dataclass(frozen=True)
class Assigned:
    """The run with each pod set's flavor, and Kueue's LastTriedFlavorIdx per pod set it assigned
    (-1: the scan reached the last flavor, the next one starts from the first)."""

    run: SimRun
    tried: tuple[int, ...] = ()


def untolerated_reason(taint: FilterTaint, flavor: str) -> str:
    """Kueue's words when a flavor's nodeTaints are not tolerated (checkFlavorForPodSets)."""
    return f"untolerated taint {{{taint.key} {taint.value} {taint.effect} <nil>}} in flavor {flavor}"


def is_preferred(a: Mode, b: Mode, fungibility: Fungibility) -> bool:
    """Kueue's isPreferred: mode a is better than b."""
    if a.preemption == NO_FIT:
        return False
    if b.preemption == NO_FIT:
        return True
    if (a.preemption == NO_CANDIDATES) != (b.preemption == NO_CANDIDATES):
        return a.preemption != NO_CANDIDATES
    if fungibility.preference == "PreemptionOverBorrowing":
        if a.borrowing != b.borrowing:
            return a.borrowing < b.borrowing
        return a.preemption > b.preemption
    if a.preemption != b.preemption:
        return a.preemption > b.preemption
    return a.borrowing < b.borrowing


def should_try_next(mode: Mode, fungibility: Fungibility) -> bool:
    """Kueue's shouldTryNextFlavor."""
    if mode.preemption in (NO_FIT, NO_CANDIDATES):
        return True
    if mode.preemption in (PREEMPT, RECLAIM) and fungibility.when_can_preempt == "TryNextFlavor":
        return True
    return mode.borrowing > 0 and fungibility.when_can_borrow == "TryNextFlavor"


def assign_flavors(
    tree: QuotaTree,
    run: SimRun,
    pending: Pending,
    victims: Victims,
    after: BorrowAfter,
    start: tuple[int, ...] = (),
) -> Assigned:
    """Each pod set's flavor as Kueue's assigner picks it among `run.flavors` now, pod set `i`'s
    scan starting at `start[i]` (0 when absent); the run unchanged when it has one flavor."""
    node = tree.queues.get(run.queue)
    if len(run.flavors) < 2 or node is None or node.queue is None:
        return Assigned(run)
    fungibility, chosen, tried = node.queue.fungibility, list(run.pod_set_flavors()), []
    for index in range(len(chosen)):
        first = start[index] if index < len(start) else 0
        found, last = _scan(tree, run, chosen, index, first, (pending, victims, after), fungibility)
        chosen[index] = found if found is not None else run.flavors[min(first, len(run.flavors) - 1)]
        tried.append(-1 if last == len(run.flavors) - 1 else last)
        if found is None:
            break
    return Assigned(with_flavors(run, chosen), tuple(tried))


def _scan(
    tree: QuotaTree,
    run: SimRun,
    chosen: list[str | None],
    index: int,
    first: int,
    engine: tuple[Pending, Victims, BorrowAfter],
    fungibility: Fungibility,
) -> tuple[str | None, int]:
    """Pod set `index`'s flavor (None: none fits) and the last flavor index the scan tried."""
    best, best_mode, last = None, WORST, first
    for last in range(first, len(run.flavors)):
        name = run.flavors[last]
        mode = _mode(tree, _on_flavor(run, chosen, index, name), *engine)
        if not should_try_next(mode, fungibility):
            return name, last
        if is_preferred(mode, best_mode, fungibility):
            best, best_mode = name, mode
    return best, last


def with_flavors(run: SimRun, flavors: list[str | None]) -> SimRun:
    """The run with pod set `i` on flavors[i] (the first pod set's is the run's own)."""
    more = tuple(replace(p, flavor=f) for p, f in zip(run.more, flavors[1:], strict=True))
    return replace(run, flavor=flavors[0], more=more)


def _on_flavor(run: SimRun, chosen: list[str | None], index: int, flavor: str) -> SimRun:
    """What Kueue checks for pod set `index` on `flavor`: its request on top of the earlier pod
    sets' on that same flavor (fitsResourceQuota with the assignment's usage so far)."""
    sets = run.pod_sets()
    if not run.more:
        return replace(run, flavor=flavor)
    kept = [sets[i] for i in range(index) if chosen[i] == flavor] + [sets[index]]
    head, rest = kept[0], kept[1:]
    return run.headed(
        head,
        tuple(_flavored(p, flavor) for p in rest),
        flavor=flavor,
        leader=run.leader if head is sets[0] else None,
    )


def _flavored(pod_set: SimPodSet, flavor: str) -> SimPodSet:
    return replace(pod_set, flavor=flavor)


def _mode(tree: QuotaTree, run: SimRun, pending: Pending, victims: Victims, after: BorrowAfter) -> Mode:
    found = pending(run)
    if isinstance(found, str):
        return WORST
    level = borrow_height(tree, run)
    if found is None:
        return Mode(FIT, level)
    if not found.need:
        return WORST
    chosen = victims(run, found)
    if not chosen:
        return Mode(NO_CANDIDATES, level)
    # Kueue's preemption oracle: Preempt when a target is in the run's own queue, else Reclaim,
    # at the borrowing level once the targets are gone (borrowAfterPreemptions)
    within = any(v.reason == "InClusterQueue" for v in chosen)
    return Mode(PREEMPT if within else RECLAIM, after(run, chosen))
