"""Types shared by several Kueue kinds: quantities, fair sharing, label selectors, stop policy."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, StrictInt, StrictStr

from taugen.api.kueue.meta import ClusterObjectMeta, KueueModel

ApiVersion = Literal["kueue.x-k8s.io/v1beta2"]
API_VERSION: str = get_args(ApiVersion)[0]

# apimachinery's quantity grammar: a signed decimal, then a binary suffix (Ki..Ei), a decimal
# suffix (n..E) or an exponent (e3, E-2). The CRDs check strings with the same grammar.
_DECIMAL = r"(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))"
_SUFFIX = rf"(([KMGTPE]i)|[numkMGTPE]|([eE]{_DECIMAL}))"
QUANTITY_PATTERN = rf"^{_DECIMAL}{_SUFFIX}?$"

Quantity = Annotated[
    StrictInt | Annotated[StrictStr, Field(pattern=QUANTITY_PATTERN)],
    Field(description="A Kubernetes quantity: an integer, or a string such as 8, 500m or 64Gi."),
]

StopPolicy = Literal["None", "Hold", "HoldAndDrain"]


class FairSharing(KueueModel):
    """A queue's or cohort's share when fair sharing divides unused quota."""

    weight: Quantity = Field(
        default=1, description="Relative share; a higher weight gets more of the unused quota."
    )


class LabelSelectorRequirement(KueueModel):
    """One key/operator/values test (In, NotIn, Exists, DoesNotExist)."""

    key: StrictStr
    operator: StrictStr
    values: list[StrictStr] | None = None


class LabelSelector(KueueModel):
    """Kubernetes label selector; both parts must match. An empty selector matches everything."""

    match_expressions: list[LabelSelectorRequirement] | None = None
    match_labels: dict[str, StrictStr] | None = None


class KueueObject(KueueModel):
    """What every Kueue object has; a kind adds its `kind` literal and `spec` (LocalQueue: a namespace)."""

    api_version: ApiVersion
    metadata: ClusterObjectMeta
    status: dict[str, Any] | None = Field(default=None, description="Written by Kueue; not checked.")
