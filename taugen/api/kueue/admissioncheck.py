"""AdmissionCheck: an extra gate a controller must open before a workload is admitted."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import DNSLabel, DNSSubdomain, KueueModel
from taugen.api.rules import ChangeCheck, fixed

# A Kubernetes kind (CamelCase); the CRD writes it as a case-insensitive RE2 pattern.
KIND_PATTERN = r"^[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?$"


class AdmissionCheckParameters(KueueModel):
    """The object that configures the check, read by its controller."""

    api_group: Annotated[DNSSubdomain, Field(min_length=1)]
    kind: Annotated[StrictStr, Field(min_length=1, max_length=63, pattern=KIND_PATTERN)]
    name: DNSLabel


class AdmissionCheckSpec(KueueModel):
    """Which controller runs the check, and with what parameters."""

    controller_name: Annotated[StrictStr, Field(min_length=1, max_length=253)]
    parameters: AdmissionCheckParameters | None = None


class AdmissionCheck(KueueObject):
    """Named in a ClusterQueue's admissionChecksStrategy."""

    kind: Literal["AdmissionCheck"]
    spec: AdmissionCheckSpec | None = None

    change_checks: ClassVar[tuple[ChangeCheck, ...]] = (
        ChangeCheck(
            "immutable-field",
            "spec",
            fixed("controllerName", "an AdmissionCheck's controllerName"),
        ),
    )
