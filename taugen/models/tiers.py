"""Priority tiers (SPEC R50): the ones a project adds beside TauGrid's two (R20, R21).

Each tier is a PriorityClass (pods) and a Kueue WorkloadPriorityClass (workloads) of one name,
`taugrid-<tier>`, as TauGrid's `taugrid-default` and `taugrid-priority` are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field, StrictInt, StrictStr, WithJsonSchema

from taugen.core.names import DNS1123_LABEL_PATTERN, PLATFORM_PREFIX, dns1123_label_error
from taugen.core.suggest import closest
from taugen.models.base import StrictModel, invalid

DEFAULT_TIER = "default"  # a profile that names no tier
TAUGRID_TIERS = ((DEFAULT_TIER, 1000), ("priority", 1200))  # R20, R21: always there, these values
# Kubernetes: a PriorityClass not named system-* takes at most HighestUserDefinablePriority; the
# field (and Kueue's WorkloadPriorityClass.value) is an int32, negative values allowed
MAX_USER_PRIORITY = 1_000_000_000
MIN_PRIORITY = -(2**31)
# SPEC §3: priority class names are at most 63 characters (Kueue copies them into a label value)
MAX_TIER_NAME = 63 - len(PLATFORM_PREFIX)
TIER_HINT = "name a tier with a DNS-1123 label such as batch or urgent"


def class_name(tier: str) -> str:
    """The PriorityClass and WorkloadPriorityClass of a tier (R20, R21, R50): one name for both."""
    return PLATFORM_PREFIX + tier


def _tier_name(value: object) -> object:
    if not isinstance(value, str):
        return value  # the str type reports it
    if why := dns1123_label_error(value):
        raise invalid(f"tier {value!r} {why}", TIER_HINT, rule="R50")
    if len(value) > MAX_TIER_NAME:
        raise invalid(
            f"tier {value!r} is {len(value)} characters: its classes, {class_name(value)}, would be "
            f"over the 63 characters of a priority class name",
            f"shorten it to at most {MAX_TIER_NAME} characters",
            rule="R50",
        )
    return value


def _declared_name(value: object) -> object:
    if value in dict(TAUGRID_TIERS):
        raise invalid(
            f"tier {value!r} is TauGrid's own ({class_name(str(value))}, "
            f"{dict(TAUGRID_TIERS)[str(value)]}): it always exists and keeps its value",
            "give the new tier another name; profiles and runs name TauGrid's tiers without declaring them",
            rule="R50",
        )
    return value


def _value(value: int) -> int:
    if not MIN_PRIORITY <= value <= MAX_USER_PRIORITY:
        raise invalid(
            f"value {value} is outside Kubernetes' range for a user-defined PriorityClass "
            f"({MIN_PRIORITY} to {MAX_USER_PRIORITY}; higher values are the system's)",
            f"choose a value from {MIN_PRIORITY} to {MAX_USER_PRIORITY}",
            rule="R50",
        )
    return value


# A tier's name wherever it is named (a profile's or a run's priority_tier, a declaration)
TierName = Annotated[
    str,
    BeforeValidator(_tier_name),
    WithJsonSchema({"type": "string", "pattern": DNS1123_LABEL_PATTERN, "maxLength": MAX_TIER_NAME}),
]


class Tier(StrictModel):
    """One tier of `priorityTiers:` (R50)."""

    name: Annotated[TierName, BeforeValidator(_declared_name)] = Field(
        description="Names the tier's classes taugrid-<name>; not default or priority (TauGrid's own)"
    )
    value: Annotated[
        StrictInt,
        AfterValidator(_value),
        WithJsonSchema({"type": "integer", "minimum": MIN_PRIORITY, "maximum": MAX_USER_PRIORITY}),
    ] = Field(description="The priority of its pods and workloads; unique, higher goes first")
    description: Annotated[StrictStr, Field(min_length=1, max_length=2048)] | None = Field(
        default=None, description="Written on both classes (kubectl get shows it)"
    )


@dataclass(frozen=True)
class Tiers:
    """Every tier of a project: TauGrid's two and the declared ones (R50)."""

    declared: tuple[Tier, ...] = ()

    @classmethod
    def of(cls, declared: Sequence[Tier]) -> Tiers:
        return cls(tuple(declared))

    @property
    def values(self) -> dict[str, int]:
        """Tier name -> value, lowest value first."""
        found = dict(TAUGRID_TIERS) | {t.name: t.value for t in self.declared}
        return dict(sorted(found.items(), key=lambda item: (item[1], item[0])))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.values)

    def description(self, tier: str) -> str | None:
        return next((t.description for t in self.declared if t.name == tier), None)

    def value_of_class(self, name: str) -> int:
        """The value of the tier whose classes are `name` (taugrid-<tier>)."""
        return self.values[name.removeprefix(PLATFORM_PREFIX)]

    def unknown(self, tier: str) -> tuple[str, str] | None:
        """The message and hint for a tier the project does not declare, else None."""
        if tier in self.values:
            return None
        guess = closest(tier, self.names)
        hint = f"did you mean {guess!r}? " if guess else ""
        return (
            f"priority tier {tier!r} is not one of the project's: "
            + ", ".join(f"{name} ({value})" for name, value in self.values.items()),
            f"{hint}name one of them, or declare it in priorityTiers: of taugen.yaml",
        )
