"""T4: shares of a class quota as whole GPUs, exactly and deterministically (largest remainders)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import floor


def resolve_shares(quota: int, shares: Mapping[str, Fraction]) -> dict[str, int]:
    """Each tenant's share (a fraction of 1) of `quota` GPUs, by tenant name.

    The floor of every exact share, then one more GPU to the largest remainders (ties: the
    name) until the floor of the shares' exact sum is reached: the parts add up exactly, and
    neither the order of `shares` nor any float rounding changes them.
    """
    exact = {name: quota * share for name, share in shares.items()}
    parts = {name: floor(value) for name, value in exact.items()}
    missing = floor(sum(exact.values(), Fraction(0))) - sum(parts.values())
    by_remainder = sorted(exact, key=lambda name: (parts[name] - exact[name], name))
    for name in by_remainder[:missing]:
        parts[name] += 1
    return dict(sorted(parts.items()))


def scaled(count: int, gpus: int, quota: int) -> int:
    """T2: floor(count * gpus / quota), e.g. a guarantee's share of the class's ready slots."""
    return count * gpus // quota if quota > 0 else 0
