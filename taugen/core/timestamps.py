"""Every time taugen prints or writes: RFC 3339 in UTC, with `Z` (the lock, the report, messages).

One home (issue 18): the report printed an inventory's own offset (`+02:00`) where the lock
wrote `Z`; now every reader sees the same instant written the same way. And one reading of a
time a user writes (R52, issue 35): RFC 3339's own grammar, a year of at least 1.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["rfc3339_error", "utc_error", "utc_sortable", "utc_text"]

# RFC 3339 §5.6 date-time: full-date "T" full-time; "T" and "Z" may be lower case (its note)
_RFC3339 = re.compile(r"(\d{4})-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


def utc_text(moment: datetime) -> str:
    """`2026-11-28T12:30:00Z`; the microseconds only when there are some (as `isoformat`)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def utc_sortable(moment: datetime) -> str:
    """Fixed width, microseconds always: text order is time order (simulate's FIFO, SPEC S2).
    The year is four digits: strftime's %Y writes year 999 as `999`, which sorted after 2026
    and which fromisoformat refused (issue 35)."""
    utc = moment.astimezone(UTC)
    return f"{utc.year:04d}-" + utc.strftime("%m-%dT%H:%M:%S.%fZ")


def rfc3339_error(text: object) -> str | None:
    """Why `text` is no RFC 3339 date-time with a year of at least 1 (None: it is one, in form;
    the date's and the clock's ranges are the parser's to check). A number is none either."""
    found = _RFC3339.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return "is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss, a fraction, then Z or ±hh:mm)"
    if int(found[1]) < 1:
        return "has year 0: RFC 3339 years here start at 1"
    return None


def utc_error(moment: datetime) -> str | None:
    """Why `moment` has no UTC time taugen can write: its offset moves it before year 1 or
    after year 9999 (`0001-01-01T00:00:00+01:00`), which Python's datetime cannot hold."""
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return "is outside years 1 to 9999 once converted to UTC"
    return None
