"""R31: an inventory older than the lock's, or than maxInventoryAge, fails closed.

An inventory observed in the future (beyond CLOCK_SKEW after the build's clock) is refused
too, --allow-stale or not (issue 17 item 7): its observedAt would become the lock's, and every
real inventory after it would be "older than the lock".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from taugen.core.errors import InputError, Problem
from taugen.core.timestamps import utc_text
from taugen.load.inventory import Inventory
from taugen.models.base import format_duration
from taugen.models.lock import ClusterLock
from taugen.models.project import Cluster

HINT = "export a current inventory, or pass --allow-stale to build from this one anyway"
CLOCK_SKEW = timedelta(hours=1)  # how far an exporter's clock may run ahead of the build's
FUTURE_HINT = "observedAt is when the nodes were read: fix the exporter's clock or the timestamp"


def check_fresh(
    cluster: Cluster,
    inventory: Inventory,
    previous: ClusterLock | None,
    now: datetime,
    allow_stale: bool,
    lock_path: Path = Path("taugen.lock"),
) -> None:
    observed = inventory.observed_at
    if observed > now + CLOCK_SKEW:
        raise InputError([_future(inventory, now)])
    if allow_stale:
        return
    problems: list[Problem] = []
    if previous is not None and previous.observedAt > now + CLOCK_SKEW:
        message = (
            f"taugen.lock's observedAt {utc_text(previous.observedAt)} for cluster {cluster.name} is in the "
            "future: no real inventory could be newer"
        )
        hint = "restore taugen.lock from Git, or pass --allow-stale: the build then records this inventory's"
        problems.append(Problem(lock_path, 0, 0, "R31", message, hint))
    elif previous is not None and observed < previous.observedAt:
        problems.append(
            inventory.observed_at_pos.problem(
                "R31",
                f"inventory observedAt {utc_text(observed)} is older than the lock's "
                f"{utc_text(previous.observedAt)} for cluster {cluster.name}",
                HINT,
            )
        )
    limit = cluster.maxInventoryAge
    if limit is not None and now - observed > limit:
        problems.append(
            inventory.observed_at_pos.problem(
                "R31",
                f"inventory observedAt {utc_text(observed)} is older than maxInventoryAge "
                f"({format_duration(limit)}) for cluster {cluster.name}",
                HINT,
            )
        )
    if problems:
        raise InputError(problems)


def _future(inventory: Inventory, now: datetime) -> Problem:
    return inventory.observed_at_pos.problem(
        "R31",
        f"inventory observedAt {utc_text(inventory.observed_at)} is in the future: more than "
        f"{format_duration(CLOCK_SKEW)} after now ({utc_text(now.replace(microsecond=0))})",
        FUTURE_HINT,
    )
