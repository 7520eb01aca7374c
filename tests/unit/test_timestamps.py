"""Issue 18: one way to write a time — RFC 3339 in UTC with `Z` (taugen/core/timestamps.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from taugen.core.timestamps import rfc3339_error, utc_error, utc_sortable, utc_text

PLUS_TWO = timezone(timedelta(hours=2))
NOT_RFC3339 = "is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss, a fraction, then Z or ±hh:mm)"


def test_utc_text_converts_the_offset_and_writes_z() -> None:
    assert utc_text(datetime(2026, 11, 28, 14, 30, tzinfo=PLUS_TWO)) == "2026-11-28T12:30:00Z"


def test_utc_text_keeps_microseconds_only_when_there_are_some() -> None:
    assert utc_text(datetime(2026, 11, 28, 12, 0, 0, 500_000, tzinfo=UTC)) == "2026-11-28T12:00:00.500000Z"


def test_utc_sortable_text_order_is_time_order() -> None:
    whole = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
    later = datetime(2026, 11, 28, 14, 0, 0, 500_000, tzinfo=PLUS_TWO)  # 12:00:00.5Z
    assert whole < later and utc_sortable(whole) < utc_sortable(later)
    assert utc_text(whole) > utc_text(later)  # "…00Z" > "…00.500000Z": the short form is no sort key


def test_utc_sortable_writes_four_digit_years_that_sort_and_parse() -> None:
    """R52 (issue 35): strftime's %Y wrote year 999 as `999`, which sorted after 2026 and which
    fromisoformat refused (`simulate -o json` exited 3)."""
    old = datetime(999, 11, 29, 9, 0, tzinfo=UTC)
    first = datetime(1, 1, 1, tzinfo=UTC)
    assert utc_sortable(old) == "0999-11-29T09:00:00.000000Z"
    assert utc_sortable(first) == "0001-01-01T00:00:00.000000Z"
    assert sorted([utc_sortable(datetime(2026, 1, 1, tzinfo=UTC)), utc_sortable(old)])[0] == utc_sortable(old)
    assert datetime.fromisoformat(utc_sortable(old)) == old


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2026-11-29T09:00:00Z", None),
        ("2026-11-29t09:00:00.123456789z", None),  # RFC 3339 §5.6: t and z, any fraction
        ("0001-01-01T00:00:00+01:00", None),  # in form: utc_error says what UTC makes of it
        ("0999-11-29T09:00:00-05:30", None),
        ("0000-01-01T00:00:00Z", "has year 0: RFC 3339 years here start at 1"),
        ("2026-11-29 09:00:00Z", NOT_RFC3339),
        ("2026-11-29T09:00Z", NOT_RFC3339),
        ("2026-11-29T09:00:00+0100", NOT_RFC3339),
        ("2026-11-29T09:00:00", NOT_RFC3339),
        ("1700000000", NOT_RFC3339),
        ("999-11-29T09:00:00Z", NOT_RFC3339),
        ("2026-11-29T09:00:00Z\n", NOT_RFC3339),
    ],
)
def test_rfc3339_error_follows_the_grammar(text: str, why: str | None) -> None:
    assert rfc3339_error(text) == why


def test_utc_error_names_offsets_that_leave_the_years_python_holds() -> None:
    assert utc_error(datetime(1, 1, 1, tzinfo=PLUS_TWO)) == "is outside years 1 to 9999 once converted to UTC"
    assert utc_error(datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-2)))) is not None
    assert utc_error(datetime(1, 1, 1, 2, tzinfo=PLUS_TWO)) is None
