"""A JobSet run's pod sets (K6): one per job, in order, as Kueue's JobSet integration makes them
(v0.19.2 pkg/controller/jobs/jobset: one PodSet per replicatedJob, named after it, count =
replicas x parallelism; taugen renders one replica, so count = the job's workers).

A job's fields left out take the run's: `resources`, `image`, `command`, the policy's
`topology` and `slice`. Every pod set uses the run's gpu-class flavor, a pod set without a GPU
request too (it is placed on the class's nodes, within its own topology)."""

from __future__ import annotations

from dataclasses import dataclass

from taugen.compile.catalog import LEVEL_OF, PREFERRED_LEVEL_OF
from taugen.core.quantity import Quantity
from taugen.load.document import Loc
from taugen.models.profile import Policy, ProfileTopology
from taugen.models.run import Run, Slice, SliceLevel
from taugen.resolve.labels import ACCELERATOR_DOMAIN, HOSTNAME, NETWORK_DOMAIN, SITE

SLICE_LEVELS = {
    SliceLevel.HOST: HOSTNAME,
    SliceLevel.ACCELERATOR_DOMAIN: ACCELERATOR_DOMAIN,
    SliceLevel.NETWORK_DOMAIN: NETWORK_DOMAIN,
    SliceLevel.SITE: SITE,
}


@dataclass(frozen=True)
class PodSet:
    name: str
    index: int  # its place in `jobs`
    count: int
    request: dict[str, Quantity]  # per pod
    image: str
    command: tuple[str, ...]
    topology: ProfileTopology
    gpu_class: str | None
    slice: Slice | None

    @property
    def at(self) -> Loc:
        return ["jobs", self.index]

    @property
    def level(self) -> str | None:
        """The level it requires; None for unconstrained or CPU-only work."""
        return LEVEL_OF.get(self.topology) if self.gpu_class else None

    @property
    def preferred_level(self) -> str | None:
        return PREFERRED_LEVEL_OF.get(self.topology) if self.gpu_class else None

    @property
    def slice_layers(self) -> tuple[tuple[str, int], ...]:
        return slice_layers(self.slice, self.gpu_class)

    def gpus(self, resource: str) -> int:
        found = self.request.get(resource)
        return 0 if found is None else int(found.value)


def slice_layers(found: Slice | None, gpu_class: str | None) -> tuple[tuple[str, int], ...]:
    """Each slice layer's level label and size, outermost first (S3); (): no slices, or CPU work."""
    if found is None or not gpu_class:
        return ()
    outer = (SLICE_LEVELS[found.level], found.size)
    return (outer, *((SLICE_LEVELS[layer.level], layer.size) for layer in found.layers))


def pod_sets(run: Run, policy: Policy) -> tuple[PodSet, ...]:
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
        )
        for i, job in enumerate(run.job_list())
    )
