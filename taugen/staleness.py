"""R31: an inventory older than the lock's, or than maxInventoryAge, fails closed."""

from __future__ import annotations

from datetime import datetime

from taugen.errors import InputError, Problem
from taugen.load.inventory import Inventory
from taugen.lock import ClusterLock
from taugen.models.base import format_duration
from taugen.models.project import Cluster

HINT = "export a current inventory, or pass --allow-stale to build from this one anyway"


def check_fresh(
    cluster: Cluster, inventory: Inventory, previous: ClusterLock | None, now: datetime, allow_stale: bool
) -> None:
    if allow_stale:
        return
    problems: list[Problem] = []
    observed = inventory.observed_at
    if previous is not None and observed < previous.observedAt:
        problems.append(
            inventory.observed_at_pos.problem(
                "R31",
                f"inventory observedAt {_iso(observed)} is older than the lock's "
                f"{_iso(previous.observedAt)} for cluster {cluster.name}",
                HINT,
            )
        )
    limit = cluster.maxInventoryAge
    if limit is not None and now - observed > limit:
        problems.append(
            inventory.observed_at_pos.problem(
                "R31",
                f"inventory observedAt {_iso(observed)} is older than maxInventoryAge "
                f"({format_duration(limit)}) for cluster {cluster.name}",
                HINT,
            )
        )
    if problems:
        raise InputError(problems)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")
