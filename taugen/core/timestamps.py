"""Every time taugen prints or writes: RFC 3339 in UTC, with `Z` (the lock, the report, messages).

One home (issue 18): the report printed an inventory's own offset (`+02:00`) where the lock
wrote `Z`; now every reader sees the same instant written the same way.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["utc_sortable", "utc_text"]


def utc_text(moment: datetime) -> str:
    """`2026-11-28T12:30:00Z`; the microseconds only when there are some (as `isoformat`)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def utc_sortable(moment: datetime) -> str:
    """Fixed width, microseconds always: text order is time order (simulate's FIFO, SPEC S2)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
