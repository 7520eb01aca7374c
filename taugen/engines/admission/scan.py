"""Kueue's flavor scan progress across scheduling cycles (R47, R52; v0.19.2 pkg/workload
`AssignmentClusterQueueState.LastTriedFlavorIdx`, pkg/scheduler/scheduler.go).

Each assignment records, per pod set, the last flavor its scan tried (-1 when it reached the
queue's last flavor). A workload not admitted keeps it (`markSkipped` too, with
FlavorFungibilityPreserveScanProgress, Beta and on in v0.19.2) and goes straight back to its
queue while some pod set has flavors left (`PendingFlavors`, pkg/cache/queue/cluster_queue.go
`requeueIfNotPresent`), so the next cycle scans from the flavor after it. The progress is dropped
when the workload issues preemptions (`markPreemptionOutcome`), and when it is older than the
previous cycle and a workload has left its ClusterQueue since (`lastAssignmentOutdated`: the
queue's AllocatableResourceGeneration grows when a workload is removed from it).

Kueue retries such a workload every cycle, for as long as it keeps flavors left, even when its
scans go round (a JobSet's `head` moved on to H100 frees H200 for its `workers`, and back):
simulate stops retrying a run once a scan repeats one it made before, so that "until nothing
changes" ends; the run then waits as inadmissible, as one with no flavor left does.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Progress:
    tried: tuple[int, ...]
    cycle: int
    removed: int  # workloads removed from the run's ClusterQueue when it was recorded


@dataclass
class ScanProgress:
    runs: dict[str, Progress] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)  # ClusterQueue -> workloads removed
    seen: dict[str, set[tuple[tuple[int, ...], tuple[int, ...]]]] = field(default_factory=dict)
    looped: set[str] = field(default_factory=set)  # runs whose last scan repeated an earlier one

    def start(self, key: str, queue: str, cycle: int) -> tuple[int, ...]:
        """Where each pod set's scan starts in `cycle` (Kueue's NextFlavorToTryForPodSetResource)."""
        found = self.runs.get(key)
        if found is None:
            return ()
        if cycle - found.cycle > 1 and self.removed.get(queue, 0) > found.removed:
            del self.runs[key]  # outdated: the queue's generation moved on
            return ()
        return tuple(i + 1 for i in found.tried)

    def record(
        self, key: str, queue: str, start: tuple[int, ...], tried: tuple[int, ...], cycle: int
    ) -> None:
        scans = self.seen.setdefault(key, set())
        if (start, tried) in scans:
            self.looped.add(key)
        else:
            self.looped.discard(key)
        scans.add((start, tried))
        self.runs[key] = Progress(tried, cycle, self.removed.get(queue, 0))

    def flavors_left(self, key: str) -> bool:
        """Kueue's PendingFlavors: some pod set has a flavor after the last one it tried."""
        found = self.runs.get(key)
        return found is not None and key not in self.looped and any(i != -1 for i in found.tried)

    def forget(self, key: str) -> None:
        self.runs.pop(key, None)

    def remove_from(self, queue: str) -> None:
        self.removed[queue] = self.removed.get(queue, 0) + 1
