"""T4: share resolution sums exactly, is deterministic and does not depend on the tenants' order."""

from __future__ import annotations

import random
from fractions import Fraction
from math import floor

from hypothesis import given
from hypothesis import strategies as st

from taugen.compile.shares import resolve_shares

NAMES = st.from_regex(r"team-[a-z]{1,6}", fullmatch=True)
PERCENT = st.fractions(min_value=0, max_value=1, max_denominator=1000)
SHARES = st.dictionaries(NAMES, PERCENT, min_size=1, max_size=8).filter(lambda d: sum(d.values()) <= 1)
QUOTA = st.integers(min_value=0, max_value=100_000)


@given(QUOTA, SHARES)
def test_t4_parts_add_up_to_the_floor_of_the_exact_sum(quota: int, shares: dict[str, Fraction]) -> None:
    parts = resolve_shares(quota, shares)
    assert sum(parts.values()) == floor(quota * sum(shares.values()))
    assert sum(parts.values()) <= quota


@given(QUOTA, SHARES)
def test_t4_each_part_is_its_floor_or_one_more(quota: int, shares: dict[str, Fraction]) -> None:
    parts = resolve_shares(quota, shares)
    assert all(floor(quota * s) <= parts[n] <= floor(quota * s) + 1 for n, s in shares.items())


@given(QUOTA, SHARES, st.randoms(use_true_random=False))
def test_t4_the_order_of_the_tenants_changes_nothing(
    quota: int, shares: dict[str, Fraction], rnd: random.Random
) -> None:
    items = list(shares.items())
    rnd.shuffle(items)
    assert resolve_shares(quota, dict(items)) == resolve_shares(quota, shares)
    assert list(resolve_shares(quota, dict(items))) == sorted(shares)


@given(QUOTA, SHARES)
def test_t4_a_larger_remainder_never_gets_less(quota: int, shares: dict[str, Fraction]) -> None:
    parts = resolve_shares(quota, shares)
    remainder = {n: quota * s - floor(quota * s) for n, s in shares.items()}
    for a in shares:
        for b in shares:
            if remainder[a] > remainder[b]:
                assert parts[a] - floor(quota * shares[a]) >= parts[b] - floor(quota * shares[b])


def test_t4_ties_go_to_the_namespace_first_in_order() -> None:
    half = Fraction(1, 2)
    assert resolve_shares(7, {"team-b": half, "team-a": half}) == {"team-a": 4, "team-b": 3}
    third = Fraction(1, 3)
    assert resolve_shares(10, {"c": third, "a": third, "b": third}) == {"a": 4, "b": 3, "c": 3}
