"""Per gpu-class capacity: quota (R26), the lock's high-water mark, Ready slots (R27), nodes."""

from __future__ import annotations

from collections.abc import Mapping

from taugen.commands.report.model import ClassRow
from taugen.compile.quota import plan_quotas
from taugen.resolve.cluster import ResolvedCluster


def class_rows(cluster: ResolvedCluster, high_water: Mapping[str, int] | None) -> tuple[ClassRow, ...]:
    """The quota a build would write now (never below the high-water mark without
    --allow-quota-decrease), beside the mark itself; `high_water` None: no history yet (R35)."""
    quotas, _ = plan_quotas(cluster, high_water or {}, allow_decrease=False)
    return tuple(
        ClassRow(
            q.gpu_class,
            q.gpus,
            None if high_water is None else high_water.get(q.gpu_class),
            q.observed_gpus,
            q.slots,
            q.nodes,
            q.nodes - q.slots,
        )
        for q in quotas
    )
