"""Tenant groups of a Kueue cluster (SPEC §15, R51): nested cohorts, each group a Kueue Cohort
under the cluster's cohort (T1) or under its parent group, with quota of its own."""

from __future__ import annotations

from pydantic import Field

from taugen.models.base import DNSLabel, StrictModel
from taugen.models.project import Count
from taugen.models.share import ClassKey, Share


class TenantGroup(StrictModel):
    name: DNSLabel = Field(description="Names the group's Cohort <clusterQueue>-<name> (R51)")
    tenants: list[DNSLabel] = Field(
        default_factory=list,
        description="Namespaces of guaranteed tenants of the cluster whose ClusterQueues join the "
        "group's Cohort; a tenant is in at most one group",
    )
    parent: DNSLabel | None = Field(
        default=None,
        description="Another group of the cluster: this group's Cohort's parentName; absent: the "
        "cluster's cohort (T1)",
    )
    guaranteed: dict[ClassKey, Share] = Field(
        default_factory=dict,
        description="GPUs per gpu-class the group's subtree holds: a count, or a share of the level "
        "above (its parent group's guarantee of the class, else the class quota); what its tenants "
        "and child groups are not guaranteed is the group Cohort's own nominal quota (R51, T4)",
    )
    borrowingLimit: dict[ClassKey, Count] = Field(
        default_factory=dict,
        description="Per gpu-class: at most this many GPUs the group's subtree borrows from its "
        "parent; absent: no limit",
    )
    lendingLimit: dict[ClassKey, Count] = Field(
        default_factory=dict,
        description="Per gpu-class: at most this many of the group's guaranteed GPUs lent to its "
        "parent; absent: all of them",
    )
    weight: Count | None = Field(
        default=None,
        description="Fair-sharing weight of the group's Cohort among its siblings: its "
        "fairSharing.weight (R49, R51; 0: it borrows last); absent: none written, Kueue's 1",
    )
