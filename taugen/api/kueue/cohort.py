"""Cohort: a node in the tree of queues that borrow from and lend to each other."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taugen.api.kueue.common import FairSharing, KueueObject
from taugen.api.kueue.meta import DNSSubdomain, KueueModel
from taugen.api.kueue.resources import ResourceGroups


class CohortSpec(KueueModel):
    """A cohort's parent and the quota it holds itself, for its members to borrow."""

    parent_name: DNSSubdomain | None = Field(default=None, description="The parent Cohort, if any.")
    resource_groups: ResourceGroups | None = None
    fair_sharing: FairSharing | None = None


class Cohort(KueueObject):
    """Groups ClusterQueues (by their cohortName) and other Cohorts (by their parentName)."""

    kind: Literal["Cohort"]
    spec: CohortSpec | None = None
