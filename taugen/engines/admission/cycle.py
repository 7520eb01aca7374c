"""Kueue's scheduling cycles (S2, T8; v0.19 pkg/scheduler/scheduler.go, schedule).

A cycle takes the head of every ClusterQueue and nominates each against the quota as the
cycle starts: it fits, it may fit by preempting, or it cannot fit. The heads are then taken
in Kueue's classical order (those that need not borrow first, by how far they borrow, then
priority, then createdAt). A head nominated to fit is checked again, as Kueue's `fits` does,
and skipped when an earlier head of the cycle took its quota (it stays at the head of its
queue); a head that could not fit, or had no victim as the cycle began, waits as inadmissible until a
preemption frees quota. A head that may preempt but finds no victim, in a ClusterQueue that
cannot always reclaim (reclaimWithinCohort other than Any), holds what it could take for the
rest of the cycle, so that borrowers in the cohort do not take it first
(reserveCapacityForUnreclaimablePreempt). With fair sharing on (R49) `order` picks each next
head instead, on the quota as the earlier heads left it (fair.py). Cycles run until the queues
are empty or a cycle changes nothing; `limit` stops them earlier (`simulate --cycles N`, R52; a
test of one Kueue cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from taugen.engines.admission.admission import Short, borrow_height, usage_of
from taugen.engines.admission.model import RunResult, SimRun
from taugen.schedulers.kueue.quota import QuotaTree, Usage

Nomination = str | Short | None  # None: fits; a Short with `need`: may preempt; else: cannot fit
NOT_REACHED = "not reached: the simulation stopped after {} scheduling cycle(s)"


@dataclass
class CycleScheduler:
    tree: QuotaTree
    nominate: Callable[[SimRun], Nomination]
    process: Callable[[SimRun, Nomination], RunResult]  # admits, or says why not
    assign: Callable[[SimRun], SimRun] = lambda run: run  # R47: its flavor as the cycle starts
    # R47: Kueue puts a workload with flavors left to try straight back in its queue (scan.py)
    retry: Callable[[SimRun], bool] = lambda run: False
    queues: dict[str, list[SimRun]] = field(default_factory=dict)
    inadmissible: list[SimRun] = field(default_factory=list)
    results: dict[str, RunResult] = field(default_factory=dict)
    cycles: int = 0  # how many ran
    cut_off: tuple[str, ...] = ()  # the runs still queued when the limit stopped the cycles (R52)
    order: Callable[[Sequence[SimRun]], SimRun] | None = None  # R49: fair sharing's next head

    def run(self, pending: Sequence[SimRun], limit: int | None = None) -> dict[str, RunResult]:
        """Every run's last answer (victims are the caller's: each result names its own). A run
        still queued when `limit` cycles have run is `cut_off` (R52): the next cycle would have
        taken it; its answer says so (never tried, or what its last try found)."""
        for run in pending:
            self.queues.setdefault(run.queue, []).append(run)
        stalled = False
        while self.queues and (limit is None or self.cycles < limit) and not stalled:
            self.cycles += 1
            stalled = not self._cycle()
        left = [run for runs in self.queues.values() for run in runs]
        if not stalled:
            self.cut_off = tuple(sorted(run.key for run in left))
        for run in left:
            if stalled:  # a cycle changed nothing: a run behind the skipped heads was never tried
                self.results.setdefault(
                    run.key, RunResult(run.key, "pending", run.flavor, NOT_REACHED.format(self.cycles))
                )
            else:
                self.results[run.key] = _cut_off(run, self.results.get(run.key), self.cycles)
        return self.results

    def _cycle(self) -> bool:
        """One cycle; False when it admitted and preempted nothing and every head was skipped."""
        heads = [self.assign(self.queues[name].pop(0)) for name in sorted(self.queues)]
        self.queues = {name: runs for name, runs in self.queues.items() if runs}
        nominated = {run.key: self.nominate(run) for run in heads}
        height = {run.key: self._height(run) for run in heads}
        reserved: list[tuple[str, Usage]] = []
        skipped: list[SimRun] = []
        retried: list[SimRun] = []
        changed = released = False
        for run in self._entries(heads, height):
            result = self.process(run, nominated[run.key])
            self.results[run.key] = result
            changed = changed or result.status == "admitted"
            released = released or bool(result.victims)
            if result.status == "admitted":
                continue
            if nominated[run.key] is None and self.nominate(run) is not None:
                skipped.append(run)  # fitted as the cycle began: an earlier head took the quota
                continue
            (retried if self.retry(run) else self.inadmissible).append(run)
            nomination = nominated[run.key]
            if isinstance(nomination, Short) and not nomination.candidates:
                reserved.append((run.queue, self._reserve(run, height[run.key])))
        for queue, usage in reversed(reserved):
            self.tree.add(queue, usage, sign=-1)
        self._requeue([*skipped, *retried], self.inadmissible if released else [])
        return changed or released or len(skipped) < len(heads)

    def _entries(self, heads: list[SimRun], height: dict[str, int]) -> Iterator[SimRun]:
        """The heads in Kueue's classical order, or one at a time as `order` picks them."""
        left = sorted(heads, key=lambda r: (height[r.key], -r.priority, r.created, r.key))
        while left:
            run = left[0] if self.order is None else self.order(left)
            left.remove(run)
            yield run

    def _requeue(self, skipped: list[SimRun], freed: list[SimRun]) -> None:
        """Skipped heads stay first in their queue; inadmissible runs return when quota is freed."""
        for run in freed:
            self.queues.setdefault(run.queue, []).append(run)
        if freed:
            self.inadmissible = []
            for runs in self.queues.values():
                runs.sort(key=lambda r: (-r.priority, r.created, r.key))
        for run in reversed(skipped):
            self.queues.setdefault(run.queue, []).insert(0, run)

    def _height(self, run: SimRun) -> int:
        return borrow_height(self.tree, run) if run.queue in self.tree.queues else 0

    def _reserve(self, run: SimRun, height: int) -> Usage:
        """What a run that may preempt but found no victim holds for the rest of the cycle."""
        node = self.tree.queues.get(run.queue)
        if node is None or node.queue is None or node.queue.preemption.reclaim_within_cohort == "Any":
            return {}
        usage: dict[tuple[str, str], int] = {}
        for fr, amount in usage_of(run).items():
            quota, used = node.quotas.get(fr), node.usage.get(fr, 0)
            if quota is None:
                continue
            if height == 0:
                usage[fr] = max(0, min(amount, quota.nominal - used))
            elif quota.borrowing_limit is None:
                usage[fr] = amount
            else:
                usage[fr] = max(0, min(amount, quota.nominal + quota.borrowing_limit - used))
        self.tree.add(run.queue, usage)
        return usage


def _cut_off(run: SimRun, last: RunResult | None, cycles: int) -> RunResult:
    """A queued run's answer when the cycles ran out: not reached, or tried and queued again."""
    reason = NOT_REACHED.format(cycles)
    if last is not None and last.reason:
        reason = f"{reason}; its last try in them: {last.reason}"
    return RunResult(
        run.key, "pending", run.flavor, reason, pod_set_flavors=last.pod_set_flavors if last else ()
    )
