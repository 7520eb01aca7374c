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

    def start(self, key: str, queue: str, cycle: int) -> tuple[int, ...]:
        """Where each pod set's scan starts in `cycle` (Kueue's NextFlavorToTryForPodSetResource)."""
        found = self.runs.get(key)
        if found is None:
            return ()
        if cycle - found.cycle > 1 and self.removed.get(queue, 0) > found.removed:
            del self.runs[key]  # outdated: the queue's generation moved on
            return ()
        return tuple(i + 1 for i in found.tried)

    def record(self, key: str, queue: str, tried: tuple[int, ...], cycle: int) -> None:
        self.runs[key] = Progress(tried, cycle, self.removed.get(queue, 0))

    def flavors_left(self, key: str) -> bool:
        """Kueue's PendingFlavors: some pod set has a flavor after the last one it tried."""
        found = self.runs.get(key)
        return found is not None and any(i != -1 for i in found.tried)

    def forget(self, key: str) -> None:
        self.runs.pop(key, None)

    def remove_from(self, queue: str) -> None:
        self.removed[queue] = self.removed.get(queue, 0) + 1
