"""Kueue (SPEC §3, §7, §10, §11): the scheduler taugen compiles for by default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taugen.compile.guarantee import Guarantees, TenantGuarantee
from taugen.core.quantity import Quantity
from taugen.models.project import Cluster
from taugen.schedulers.kueue import risks
from taugen.schedulers.kueue.cohort import COHORT_FILE, tenant_preemption
from taugen.schedulers.kueue.compile import FLAVORS_FILE, QUEUE_FILE, KueueCompile
from taugen.schedulers.kueue.contract import KueueContract
from taugen.schedulers.kueue.history import cohort_extra_marks, cohort_marks
from taugen.schedulers.kueue.model import KueueCluster
from taugen.schedulers.kueue.preflight import kueue_checks
from taugen.schedulers.protocol import Files, Placeable, QuotaMarks, RunContract

if TYPE_CHECKING:
    from taugen.engines.runs.resolution import RunContext


class Kueue(KueueCompile):
    name = "kueue"
    model: type[Cluster] = KueueCluster
    display_name = "Kueue"
    files = Files(queues=QUEUE_FILE, flavors=FLAVORS_FILE, also_quota=(COHORT_FILE,))
    capabilities = KueueCluster.capabilities
    contract: RunContract = KueueContract()

    def preflight(self, context: RunContext, request: dict[str, Quantity]) -> Placeable:
        return kueue_checks(context, request)

    def quota_marks(self, docs: Sequence[dict[str, Any]], cluster: Cluster, path: Path) -> QuotaMarks:
        queue = cluster.clusterQueue
        return QuotaMarks(cohort_marks(docs, queue, path), extra=cohort_extra_marks(docs, queue, path))

    def tenant_queue(self, cluster: Cluster, namespace: str, guarantees: Guarantees) -> str:
        own = guarantees.of(namespace)
        return own.queue if own else cluster.clusterQueue

    def tenant_preemption(self, guarantee: TenantGuarantee) -> dict[str, Any] | None:
        return tenant_preemption(guarantee)

    def capacity_lost(self, kind: str, path: tuple[Any, ...], action: str, old: Any, new: Any) -> bool:
        return risks.capacity_lost(kind, path, action, old, new)
