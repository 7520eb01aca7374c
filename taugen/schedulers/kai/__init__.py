"""KAI Scheduler (SPEC §8, K1-K6): Queues instead of ClusterQueues, no flavors, no cohorts."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taugen.compile.guarantee import Guarantees, TenantGuarantee
from taugen.core.quantity import Quantity
from taugen.models.project import Cluster
from taugen.schedulers.kai.compile import QUEUES_FILE, KaiCompile, leaf_queue
from taugen.schedulers.kai.contract import KaiContract
from taugen.schedulers.kai.history import kai_total
from taugen.schedulers.kai.model import KaiCluster
from taugen.schedulers.kai.preflight import kai_checks
from taugen.schedulers.protocol import Files, Placeable, QuotaMarks, RunContract

if TYPE_CHECKING:
    from taugen.engines.runs.resolution import RunContext


class Kai(KaiCompile):
    name = "kai"
    model: type[Cluster] = KaiCluster
    display_name = "KAI Scheduler"
    files = Files(queues=QUEUES_FILE)
    capabilities = KaiCluster.capabilities
    contract: RunContract = KaiContract()

    def preflight(self, context: RunContext, request: dict[str, Quantity]) -> Placeable:
        return kai_checks(context, request)

    def quota_marks(self, docs: Sequence[dict[str, Any]], cluster: Cluster, path: Path) -> QuotaMarks:
        """R26: the parent Queue's total, the most any side of a conflict gives it."""
        return QuotaMarks({}, max((kai_total(doc, cluster.clusterQueue, path) for doc in docs), default=0))

    def tenant_queue(self, cluster: Cluster, namespace: str, guarantees: Guarantees) -> str:
        return leaf_queue(namespace)

    def tenant_preemption(self, guarantee: TenantGuarantee) -> dict[str, Any] | None:
        return None  # KAI's Queues carry no preemption settings of taugen's (K2)

    def capacity_lost(self, kind: str, path: tuple[Any, ...], action: str, old: Any, new: Any) -> bool:
        """A Queue's quota or limit removed or lowered: a number, -1 meaning unlimited (K2)."""
        if kind != "Queue" or path[:2] != ("spec", "resources") or path[-1:] not in (("quota",), ("limit",)):
            return False
        if action == "removed":
            return True
        if action != "changed" or not all(isinstance(v, int | float) for v in (old, new)):
            return False
        return bool(new >= 0 and (old < 0 or new < old))
