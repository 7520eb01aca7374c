"""What a report shows of issue 35's admission model: the queues' flavor order and the tenants'
flavorFungibility (R47), and the tree of groups' Cohorts (R51).

The flavor order is the one a build writes (compile/fallback.py: the profiles' `gpu_class` lists,
then R25's order by name), with the lists that made it. A cluster without a fallback list or a
tenant's flavorFungibility, or without groups, shows neither (its page stays as it was).
"""

from __future__ import annotations

from collections.abc import Sequence

from taugen.commands.report.model import FlavorOrder, GroupRow
from taugen.compile.fallback import flavor_order
from taugen.compile.guarantee import Guarantees
from taugen.compile.quota import ClassQuota
from taugen.load.profiles import LoadedProfile
from taugen.models.project import Cluster
from taugen.schedulers.kueue.flavors import CPU_FLAVOR, flavor_name


def flavor_order_of(
    cluster: Cluster, quotas: Sequence[ClassQuota], profiles: Sequence[LoadedProfile], guarantees: Guarantees
) -> FlavorOrder | None:
    """R47: the flavors every queue of the cluster holds, in order, the profiles' lists of classes
    the cluster has, and the flavorFungibility of each tenant that sets it; None on a scheduler
    without flavor choice (KAI) or when nothing orders the flavors nor sets a policy."""
    if not cluster.capabilities.fallback_classes:
        return None
    classes = [q.gpu_class for q in quotas]
    lists = tuple(
        (p.profile.metadata.name, p.profile.policy.classes)
        for p in profiles
        if p.profile.policy.fallback and len(set(p.profile.policy.classes) & set(classes)) > 1
    )
    fungibility = tuple(
        (t.namespace, t.fungibility.as_spec()) for t in guarantees.tenants if t.fungibility is not None
    )
    if not lists and not fungibility:
        return None
    flavors = (CPU_FLAVOR, *(flavor_name(c) for c in flavor_order(classes, profiles)))
    return FlavorOrder(flavors, lists, fungibility)


def group_rows(quotas: Sequence[ClassQuota], guarantees: Guarantees) -> tuple[GroupRow, ...]:
    """R51: per group (the project's order) and gpu-class: its Cohort, parent and tenants, what its
    subtree is guaranteed and its Cohort holds of its own, its limits, and what the subtree may
    borrow from the rest of the tree."""
    rows = []
    for group in guarantees.groups:
        for quota in quotas:
            part = group.of(quota.gpu_class)
            written = part is not None and part.written is not None
            rows.append(
                GroupRow(
                    group.name,
                    group.cohort,
                    group.parent,
                    group.tenants,
                    quota.gpu_class,
                    part.gpus if part is not None and written else None,
                    part.own if part is not None else 0,
                    part.borrowing_limit if part is not None else None,
                    part.lending_limit if part is not None else None,
                    guarantees.group_borrowable(group.name, quota),
                )
            )
    return tuple(rows)
