"""The node filters a pod applies, as Kubernetes (and Kueue's TAS) match them: taints against
tolerations (corev1 ToleratesTaint), and a required node affinity term
(nodeSelectorTerms[].matchExpressions): what a Run pins its pods to or away from.

Kubernetes' rules (ValidateNodeSelectorRequirement, and labels.NewRequirement that the
scheduler and Kueue's TAS parse it with): In and NotIn take one or more values, Exists and
DoesNotExist none, Gt and Lt exactly one integer; every value is a label value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import Field, StrictStr, model_validator

from taugen.core.names import label_value_error
from taugen.models.base import StrictModel, invalid
from taugen.models.platform import NodeLabelKey

Operator = Literal["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]
DECIMAL = re.compile(r"[+-]?[0-9]{1,19}")  # an int64 has at most 19 digits (and int() no 4,300)
INT64 = (-(2**63), 2**63 - 1)


class NodeRequirement(StrictModel):
    """One `{key, operator, values}` of a node selector term; a term holds when all do."""

    key: NodeLabelKey = Field(description="A node label key, e.g. kubernetes.io/hostname")
    operator: Operator
    values: tuple[StrictStr, ...] = Field(
        default=(), description="In/NotIn: 1+; Exists: none; Gt/Lt: 1 integer"
    )

    @model_validator(mode="after")
    def _values_fit_operator(self) -> Self:
        if why := values_error(self.operator, self.values):
            raise invalid(f"{self.operator} {why}", OPERATOR_HINTS[self.operator])
        if why := next((f"{v!r} {e}" for v in self.values if (e := label_value_error(v))), None):
            raise invalid(f"value {why}", "write each value as a label value, e.g. h200-pool")
        return self

    def matches(self, labels: Mapping[str, str]) -> bool:
        """Kubernetes' labels.Requirement.Matches."""
        value = labels.get(self.key)
        if self.operator in ("Exists", "DoesNotExist"):
            return (value is not None) == (self.operator == "Exists")
        if self.operator == "In":
            return value is not None and value in self.values
        if self.operator == "NotIn":
            return value is None or value not in self.values
        found, bound = _integer(value), _integer(self.values[0])
        if found is None or bound is None:
            return False
        return found > bound if self.operator == "Gt" else found < bound


OPERATOR_HINTS: dict[str, str] = {
    "In": "list one or more label values under `values`",
    "NotIn": "list one or more label values under `values`",
    "Exists": "remove `values`: Exists only asks that the label is there",
    "DoesNotExist": "remove `values`: DoesNotExist only asks that the label is absent",
    "Gt": "give one integer under `values`, e.g. values: ['3']",
    "Lt": "give one integer under `values`, e.g. values: ['3']",
}


def values_error(operator: str, values: Sequence[str]) -> str | None:
    """Why the number or form of `values` does not fit `operator` (Kubernetes' rules), or None."""
    if operator in ("In", "NotIn") and not values:
        return "needs at least one value"
    if operator in ("Exists", "DoesNotExist") and values:
        return "takes no values"
    if operator in ("Gt", "Lt") and (len(values) != 1 or _integer(values[0]) is None):
        return f"takes exactly one integer value, not {list(values)}"
    return None


def term_matches(term: Sequence[NodeRequirement], labels: Mapping[str, str]) -> bool:
    """A nodeSelectorTerm: every requirement holds; an empty term matches no node."""
    return bool(term) and all(r.matches(labels) for r in term)


def affinity_matches(terms: Sequence[Sequence[NodeRequirement]], labels: Mapping[str, str]) -> bool:
    """requiredDuringSchedulingIgnoredDuringExecution: the terms are ORed."""
    return any(term_matches(term, labels) for term in terms)


def _integer(text: str | None) -> int | None:
    """strconv.ParseInt(text, 10, 64): an optional sign and decimal digits, within int64."""
    if text is None or not DECIMAL.fullmatch(text):
        return None
    value = int(text)
    return value if INT64[0] <= value <= INT64[1] else None


@dataclass(frozen=True)
class FilterToleration:
    key: str  # "": every key (with operator Exists)
    value: str | None = None  # None: operator Exists
    effect: str | None = None  # None: every effect

    def tolerates(self, taint: FilterTaint) -> bool:  # corev1.Toleration.ToleratesTaint
        same_effect = self.effect is None or self.effect == taint.effect
        same_key = not self.key or self.key == taint.key
        return same_key and same_effect and self.value in (None, taint.value)


@dataclass(frozen=True)
class FilterTaint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:  # corev1.Taint.ToString
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"

    @property
    def schedules(self) -> bool:
        return self.effect in ("NoSchedule", "NoExecute")  # PreferNoSchedule never excludes


def untolerated(taints: Sequence[FilterTaint], tolerations: Sequence[FilterToleration]) -> FilterTaint | None:
    """corev1helpers.FindMatchingUntoleratedTaint with IsSchedulingTaint: the first
    NoSchedule/NoExecute taint no toleration tolerates."""
    for taint in taints:
        if taint.schedules and not any(t.tolerates(taint) for t in tolerations):
            return taint
    return None
