"""A JobSet run's pod sets (K6): one per job, in order, as Kueue's JobSet integration makes them
(v0.19.2 pkg/controller/jobs/jobset: one PodSet per replicatedJob, named after it, count =
replicas x parallelism; taugen renders one replica, so count = the job's workers).

A job's fields left out take the run's: `resources`, `image`, `command`, the policy's
`topology` and `slice`. Every pod set uses the run's gpu-class flavor, a pod set without a GPU
request too (it is placed on the class's nodes, within its own topology)."""

from __future__ import annotations

from dataclasses import dataclass

from taugen.core.quantity import Quantity
from taugen.load.document import Loc
from taugen.models.profile import Policy, Topology
from taugen.models.run import Run, Slice
from taugen.resolve.levels import Levels


@dataclass(frozen=True)
class PodSet:
    name: str
    index: int  # its place in `jobs`
    count: int
    request: dict[str, Quantity]  # per pod
    image: str
    command: tuple[str, ...]
    topology: Topology
    gpu_class: str | list[str] | None  # R47: a list of classes in order of preference
    slice: Slice | None
    levels: Levels  # the cluster's (R42)

    @property
    def at(self) -> Loc:
        return ["jobs", self.index]

    @property
    def level(self) -> str | None:
        """The level it requires; None for unconstrained or CPU-only work."""
        return self.levels.required(self.topology) if self.gpu_class else None

    @property
    def preferred_level(self) -> str | None:
        return self.levels.preferred(self.topology) if self.gpu_class else None

    @property
    def slice_layers(self) -> tuple[tuple[str, int], ...]:
        return slice_layers(self.slice, self.gpu_class, self.levels)

    def gpus(self, resource: str) -> int:
        found = self.request.get(resource)
        return 0 if found is None else int(found.value)


def slice_layers(
    found: Slice | None, gpu_class: str | list[str] | None, levels: Levels
) -> tuple[tuple[str, int], ...]:
    """Each slice layer's level label and size, outermost first (S3); (): no slices, or CPU work."""
    if found is None or not gpu_class:
        return ()
    outer = (levels.contract_label(found.level), found.size)
    return (outer, *((levels.contract_label(layer.level), layer.size) for layer in found.layers))


def pod_sets(run: Run, policy: Policy, levels: Levels) -> tuple[PodSet, ...]:
    """One per job of a JobSet run, in order; () for a Job or a LeaderWorkerSet."""
    return tuple(
        PodSet(
            job.name,
            i,
            job.workers,
            dict(job.resources or run.resources),
            job.image or run.image,
            tuple(job.command or run.command),
            job.topology or policy.topology,
            policy.gpu_class,
            job.slice or run.policy.slice,
            levels,
        )
        for i, job in enumerate(run.job_list())
    )
