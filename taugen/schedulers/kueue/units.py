"""Quantities as the integers the placement core counts in: cpu in millicores, the rest whole."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from taugen.core.quantity import Quantity

MILLI = ("cpu",)  # Kueue counts cpu in millicores and every other resource in base units


def units(resource: str, quantity: Quantity) -> int:
    scale = 1000 if resource in MILLI else 1
    return math.ceil(quantity.value * scale)


def as_units(resources: Mapping[str, Quantity]) -> dict[str, int]:
    return {name: units(name, q) for name, q in sorted(resources.items())}


def quantity(resource: str, amount: int, like: Quantity) -> Quantity:
    """An amount in core units as a quantity written the way `like` is (Ti stays Ti)."""
    return Quantity(Fraction(amount, 1000 if resource in MILLI else 1), like.format)


def shown(resource: str, amount: int) -> str:
    """An amount in core units, written back as a quantity (cpu: 1500 -> 1500m, 2000 -> 2)."""
    if resource in MILLI:
        return str(amount // 1000) if amount % 1000 == 0 else f"{amount}m"
    return Quantity.parse(amount).canonical() if amount >= 0 else str(amount)
