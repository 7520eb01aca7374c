"""One line of a preflight verdict, and what a scheduler's own eligibility checks return."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from taugen.quantity import Quantity
from taugen.runs.resolution import RunContext

CheckId = Literal["profile", "flavor", "quota", "slot", "topology"]  # a preflight verdict's lines


@dataclass(frozen=True)
class Check:
    id: CheckId
    ok: bool
    message: str


@dataclass(frozen=True)
class Placeable:
    checks: list[Check]
    go_on: bool  # False: nothing to fit a topology against (no flavor, no queue)


SchedulerChecks = Callable[[RunContext, dict[str, Quantity]], Placeable]


def total(request: Quantity, pods: int) -> Quantity:
    return Quantity(request.value * pods, request.format)
