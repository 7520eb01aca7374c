"""Kueue's flavor assignment across a run's fallback classes (R47, R52; v0.19.2
pkg/scheduler/flavorassigner/flavorassigner.go, findFlavorForPodSets).

The run's flavors are tried in the ClusterQueue's order. Each gets a mode: it fits (at a borrowing
level: 0 within the queue's nominal quota, else the height of the lowest cohort that holds it),
it fits by preempting (`reclaim` when every victim is in another queue, else `preempt`), it could
by preempting but no admitted run is a candidate, or it does not fit. The search stops at the first
flavor whose mode `shouldTryNextFlavor` does not pass over (flavorFungibility: whenCanBorrow,
whenCanPreempt); otherwise the best mode seen wins (`isPreferred`: by preemption mode then
borrowing level, or the reverse with preference PreemptionOverBorrowing).

Kueue checks topology after the flavor is chosen and, when it cannot place the run there, starts
the workload's next attempt at the next flavor (LastTriedFlavorIdx); simulate runs until nothing
changes, so a flavor whose topology cannot place the run counts here as not fitting, which reaches
the same flavor within one pass (a `--cycles` count may then admit a cycle earlier than Kueue).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from taugen.engines.admission.admission import Short, borrow_height
from taugen.engines.admission.model import SimRun, Victim
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
Places = Callable[[SimRun], bool]
BorrowAfter = Callable[[SimRun, tuple[Victim, ...]], int]  # the borrowing level once they are gone


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


def assign_flavor(
    tree: QuotaTree, run: SimRun, pending: Pending, victims: Victims, places: Places, after: BorrowAfter
) -> SimRun:
    """The run with the flavor Kueue's assigner picks among `run.flavors` now; unchanged when it
    has one flavor, or none fits (the first flavor's reason then stands)."""
    node = tree.queues.get(run.queue)
    if len(run.flavors) < 2 or node is None or node.queue is None:
        return run
    fungibility = node.queue.fungibility
    best, best_mode = None, WORST
    for name in run.flavors:
        candidate = replace(run, flavor=name)
        mode = _mode(tree, candidate, pending, victims, places, after)
        if not should_try_next(mode, fungibility):
            return candidate
        if is_preferred(mode, best_mode, fungibility):
            best, best_mode = candidate, mode
    return best if best is not None else replace(run, flavor=run.flavors[0])


def _mode(
    tree: QuotaTree, run: SimRun, pending: Pending, victims: Victims, places: Places, after: BorrowAfter
) -> Mode:
    found = pending(run)
    if isinstance(found, str):
        return WORST
    level = borrow_height(tree, run)
    if found is None:
        return Mode(FIT, level) if places(run) else WORST
    if not found.need:
        return WORST
    chosen = victims(run, found)
    if not chosen:
        return Mode(NO_CANDIDATES, level)
    # Kueue's preemption oracle: Preempt when a target is in the run's own queue, else Reclaim,
    # at the borrowing level once the targets are gone (borrowAfterPreemptions)
    within = any(v.reason == "InClusterQueue" for v in chosen)
    return Mode(PREEMPT if within else RECLAIM, after(run, chosen))
