"""Resource groups: the quota table shared by ClusterQueue and Cohort."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictStr

from taugen.api.kueue.common import Quantity
from taugen.api.kueue.meta import DNSSubdomain, KueueModel

# Kueue's API limits (also checked by its webhook); taugen's own outputs stay below them.
MAX_RESOURCE_GROUPS = 16
MAX_FLAVORS = 64
MAX_RESOURCES = 64


class ResourceQuota(KueueModel):
    """The quota of one resource in one flavor."""

    name: StrictStr
    nominal_quota: Quantity
    borrowing_limit: Quantity | None = Field(
        default=None, description="Most this queue may borrow above nominalQuota; needs a cohort."
    )
    lending_limit: Quantity | None = Field(
        default=None, description="Most of nominalQuota others in the cohort may borrow."
    )


class FlavorQuotas(KueueModel):
    """The quotas of one ResourceFlavor, one entry per covered resource."""

    name: DNSSubdomain
    resources: Annotated[list[ResourceQuota], Field(min_length=1, max_length=MAX_RESOURCES)]


class ResourceGroup(KueueModel):
    """Resources that are always assigned the same flavor, and the flavors to try, in order."""

    covered_resources: Annotated[list[StrictStr], Field(min_length=1, max_length=MAX_RESOURCES)]
    flavors: Annotated[list[FlavorQuotas], Field(min_length=1, max_length=MAX_FLAVORS)]


ResourceGroups = Annotated[list[ResourceGroup], Field(max_length=MAX_RESOURCE_GROUPS)]
