"""What a scheduler provides (STYLE.md: small modules behind one Protocol).

One `Backend` per scheduler, in its own package (taugen/schedulers/<name>/), listed in
taugen/schedulers/registry.py under its `name`, with its cluster entry (`model`). The pipeline below
(compile) takes the part it needs as an argument (`CompileBackend`); the floor and the engines
above look the cluster's scheduler up and ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from taugen.compile.backend import CompileBackend
from taugen.compile.guarantee import Guarantees, TenantGuarantee
from taugen.core.quantity import Quantity
from taugen.models.project import Capabilities, Cluster

if TYPE_CHECKING:  # the run engine sits above the schedulers: its types, never its code
    from taugen.engines.runs.podsets import PodSet
    from taugen.engines.runs.resolution import RunContext

CheckId = Literal["profile", "class", "flavor", "quota", "slot", "topology"]  # a preflight verdict's lines


@dataclass(frozen=True)
class Check:
    id: CheckId
    ok: bool
    message: str


@dataclass(frozen=True)
class Placeable:
    checks: list[Check]
    go_on: bool  # False: nothing to fit a topology against (no flavor, no queue)


@dataclass(frozen=True)
class Files:
    """The scheduler's output files in out/<cluster>/ that readers open by name."""

    queues: str  # the queues whose GPU quota is the history without a lock (R35)
    flavors: str = ""  # Kueue's ResourceFlavors; empty: the scheduler has none
    also_quota: tuple[str, ...] = ()  # R51: files whose quota joins the queues' (Kueue's Cohorts)


@dataclass(frozen=True)
class QuotaMarks:
    """GPU quota read back from a committed queue file (R35): per class, or one total (KAI)."""

    marks: dict[str, int]
    total: int = 0
    extra: dict[str, dict[str, int]] = field(default_factory=dict)  # R44: gpu-class -> resource -> mark


class RunContract(Protocol):
    """What the scheduler reads off a run's objects (§7 for Kueue, K4/K5 for KAI)."""

    suspend: bool  # Kueue admits a suspended Job by unsuspending it

    def owner_labels(self, context: RunContext) -> dict[str, str]: ...

    def owner_annotations(self, context: RunContext) -> dict[str, str]: ...

    def pod_labels(self, context: RunContext) -> dict[str, str]: ...

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        """grouped: the pod templates of one LeaderWorkerSet replica (K5)."""
        ...

    def pod_fields(self, context: RunContext) -> dict[str, Any]: ...

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        """A JobSet's replicatedJob's pod template (K6): Kueue reads one TAS request per pod set."""
        ...


class Backend(CompileBackend, Protocol):
    """A scheduler: its compile (CompileBackend), and everything else taugen asks of it."""

    name: str  # its key in the registry: the value of `scheduler:` in taugen.yaml
    model: type[Cluster]  # its cluster entry in taugen.yaml (<name>/model.py)
    display_name: str  # in sentences: "Kueue", "KAI Scheduler"
    files: Files
    capabilities: Capabilities
    contract: RunContract

    def preflight(self, context: RunContext, request: dict[str, Quantity]) -> Placeable:
        """The scheduler's own eligibility checks of a run (§7 flavor and quota; §8 class and Queue)."""
        ...

    def quota_marks(self, docs: Sequence[dict[str, Any]], cluster: Cluster, path: Path) -> QuotaMarks:
        """The GPU quota of the cluster's queues in the committed `files.queues` (R35); InputError
        (rule R35) when a quantity cannot be read."""
        ...

    def tenant_queue(self, cluster: Cluster, namespace: str, guarantees: Guarantees) -> str:
        """The queue that admits the tenant's work (T5 for Kueue, K2 for KAI)."""
        ...

    def tenant_preemption(self, guarantee: TenantGuarantee) -> dict[str, Any] | None:
        """The preemption the tenant's own queue is written with (T2, R48); None: the scheduler
        writes none."""
        ...

    def capacity_lost(self, kind: str, path: tuple[str | int, ...], action: str, old: Any, new: Any) -> bool:
        """Diff risk: a change of one of the scheduler's objects that takes capacity away."""
        ...
