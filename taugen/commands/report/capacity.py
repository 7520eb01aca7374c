"""Per gpu-class capacity: quota (R26), the lock's high-water mark, Ready slots (R27), nodes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taugen.commands.report.model import ReportClassRow, TenantRow
from taugen.compile.extra import ExtraMarks
from taugen.compile.guarantee import Guarantees
from taugen.compile.quota import ClassQuota, plan_quotas
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster


def class_rows(
    cluster: ResolvedCluster, high_water: Mapping[str, int] | None, extra_marks: ExtraMarks | None = None
) -> tuple[ReportClassRow, ...]:
    """The quota a build would write now (never below the high-water mark without
    --allow-quota-decrease), beside the mark itself; `high_water` None: no history yet (R35).
    R44: with each extra resource's quota, kept by `extra_marks` as GPU quota by the mark."""
    quotas, _ = plan_quotas(cluster, high_water or {}, allow_decrease=False, extra_marks=extra_marks)
    return tuple(
        ReportClassRow(
            q.gpu_class,
            q.gpus,
            None if high_water is None else high_water.get(q.gpu_class),
            q.observed_gpus,
            q.slots,
            q.nodes,
            q.nodes - q.slots,
            tuple(q.extra.items()),
        )
        for q in quotas
    )


def tenant_rows(
    cluster: Cluster, quotas: Sequence[ClassQuota], guarantees: Guarantees
) -> tuple[TenantRow, ...]:
    """§10: guaranteed, borrowable and shared GPUs per tenant and class; none without a cohort."""
    if not guarantees.cohort:
        return ()
    rows = []
    for tenant in sorted(cluster.tenants, key=lambda t: t.namespace):
        own = guarantees.of(tenant.namespace)
        for quota in quotas:
            part = own.of(quota.gpu_class) if own is not None else None
            gpus = part.gpus if part is not None else 0
            borrow = guarantees.borrowable(tenant.namespace, quota)
            rows.append(
                TenantRow(tenant.namespace, quota.gpu_class, gpus, borrow, guarantees.shared(quota)[0])
            )
    return tuple(rows)
