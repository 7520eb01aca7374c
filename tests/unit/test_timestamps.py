"""Issue 18: one way to write a time — RFC 3339 in UTC with `Z` (taugen/core/timestamps.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from taugen.core.timestamps import utc_sortable, utc_text

PLUS_TWO = timezone(timedelta(hours=2))


def test_utc_text_converts_the_offset_and_writes_z() -> None:
    assert utc_text(datetime(2026, 11, 28, 14, 30, tzinfo=PLUS_TWO)) == "2026-11-28T12:30:00Z"


def test_utc_text_keeps_microseconds_only_when_there_are_some() -> None:
    assert utc_text(datetime(2026, 11, 28, 12, 0, 0, 500_000, tzinfo=UTC)) == "2026-11-28T12:00:00.500000Z"


def test_utc_sortable_text_order_is_time_order() -> None:
    whole = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
    later = datetime(2026, 11, 28, 14, 0, 0, 500_000, tzinfo=PLUS_TWO)  # 12:00:00.5Z
    assert whole < later and utc_sortable(whole) < utc_sortable(later)
    assert utc_text(whole) > utc_text(later)  # "…00Z" > "…00.500000Z": the short form is no sort key
