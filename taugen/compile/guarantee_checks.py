"""The errors of T2 and T4, each at the project file's line of the tenant's key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taugen.compile.quota import ClassQuota
from taugen.core.errors import Problem
from taugen.core.suggest import CLOSE, closest
from taugen.load.document import Document, Loc
from taugen.models.project import Cluster, Tenant

MAX_QUEUE_NAME = 63  # T2: Kueue copies a ClusterQueue's name into label values
LIMITS = ("borrowingLimit", "lendingLimit")


def _at(index: int, j: int, *loc: str) -> list[str | int]:
    return ["clusters", index, "tenants", j, *loc]


def check_tenant_fields(cluster: Cluster, doc: Document, index: int) -> list[Problem]:
    """T2: weight and limits go on a tenant's own ClusterQueue, which only a guarantee gives;
    T7: a KAI Queue has a quota and a limit, nothing that says how much it lends."""
    problems = []
    for j, tenant in enumerate(cluster.tenants):
        if not cluster.capabilities.cohorts:  # no tenant queue of its own: T2's fields do not apply
            if tenant.preemption is not None:
                problems.append(
                    doc.at(_at(index, j, "preemption"), key=True).problem(
                        "R48",
                        f"tenant {tenant.namespace} sets preemption, a setting of Kueue's ClusterQueues",
                        "remove preemption: KAI preempts by its own rules (priority and over-quota weight)",
                    )
                )
            if tenant.flavorFungibility is not None:
                problems.append(
                    doc.at(_at(index, j, "flavorFungibility"), key=True).problem(
                        "R47",
                        f"tenant {tenant.namespace} sets flavorFungibility, "
                        "a setting of Kueue's ClusterQueues",
                        "remove flavorFungibility: KAI queues count GPUs without classes",
                    )
                )
            if tenant.lendingLimit and not cluster.capabilities.lending_limits:
                problems.append(
                    doc.at(_at(index, j, "lendingLimit"), key=True).problem(
                        "T7",
                        f"tenant {tenant.namespace} sets lendingLimit, which KAI Queues cannot express",
                        "remove lendingLimit: KAI lends every unused deserved GPU",
                    )
                )
            continue
        used = [
            f
            for f in ("weight", *LIMITS, "preemption", "flavorFungibility")
            if f in tenant.model_fields_set and (f == "weight" or getattr(tenant, f))
        ]
        if used and not tenant.guaranteed:
            problems.append(
                doc.at(_at(index, j, used[0]), key=True).problem(
                    "T2",
                    f"tenant {tenant.namespace} sets {', '.join(used)} without guaranteed: it shares the "
                    f"ClusterQueue {cluster.clusterQueue} with every tenant that has no guarantee",
                    "add guaranteed (e.g. {h200-141gb: 8}) to give it its own ClusterQueue, or remove them",
                )
            )
    return problems


def check_classes(
    cluster: Cluster,
    guaranteed: Sequence[tuple[int, Tenant]],
    quotas: Mapping[str, ClassQuota],
    doc: Document,
    index: int,
) -> list[Problem]:
    """T4: a guarantee or a limit for a class the cluster does not have."""
    problems = []
    for j, tenant in guaranteed:
        for field in ("guaranteed", *LIMITS):
            for gpu_class in getattr(tenant, field):
                if gpu_class not in quotas:
                    where = doc.at(_at(index, j, field, gpu_class), key=True)
                    problems.append(where.problem("T4", *_unknown(cluster, gpu_class, sorted(quotas))))
    return problems


def _unknown(cluster: Cluster, gpu_class: str, known: list[str]) -> tuple[str, str]:
    message = f"cluster {cluster.name} has no gpu-class {gpu_class}"
    close = closest(gpu_class, known, CLOSE)
    listed = ", ".join(known) or "none"
    hint = f"did you mean {close}?" if close else f"the cluster's gpu-classes: {listed}"
    return message, hint


def cohort_queue_name(
    cluster: Cluster, guaranteed: Sequence[tuple[int, Tenant]], doc: Document, index: int
) -> list[Problem]:
    """T2: the tenant's ClusterQueue <clusterQueue>-<namespace> is at most 63 characters."""
    if not cluster.capabilities.cohorts:
        return []
    problems = []
    for j, tenant in guaranteed:
        name = f"{cluster.clusterQueue}-{tenant.namespace}"
        if len(name) > MAX_QUEUE_NAME:
            problems.append(
                doc.at(_at(index, j, "namespace")).problem(
                    "T2",
                    f"tenant {tenant.namespace}'s ClusterQueue {name} is {len(name)} characters; "
                    f"Kueue limits it to {MAX_QUEUE_NAME}",
                    "shorten the cluster's clusterQueue or the namespace",
                )
            )
    return problems


def check_sums(
    cluster: Cluster,
    levels: Sequence[tuple[str, int, Sequence[tuple[Loc, str, int | str, int]]]],
    doc: Document,
) -> list[Problem]:
    """T4: the guarantees of a class at the cluster's level add up to at most its quota; the
    error names every part. `levels`: per class (by name), its quota and its parts (the
    position of the part's `guaranteed`, its name, as written, resolved); a group's part is its
    whole subtree's guarantee (R51)."""
    problems = []
    for gpu_class, quota, parts in sorted(levels, key=lambda level: level[0]):
        total = sum(resolved for *_, resolved in parts)
        if total <= quota or not parts:
            continue
        shown = ", ".join(f"{name} {part_text(written, resolved)}" for _, name, written, resolved in parts)
        loc = parts[-1][0]
        problems.append(
            doc.at([*loc, gpu_class], key=True).problem(
                "T4",
                f"cluster {cluster.name}: guarantees of {gpu_class} add up to {total} GPUs, over its "
                f"quota of {quota} ({shown})",
                f"lower the guarantees of {gpu_class} to {quota} GPUs in all, or add nodes of the class",
            )
        )
    return problems


def part_text(written: int | str, resolved: int) -> str:
    """A guarantee as written and resolved: `24`, or `50% = 24` (T4)."""
    return str(resolved) if isinstance(written, int) else f"{written} = {resolved}"


def check_lending(
    guaranteed: Sequence[tuple[int, Tenant]], gpus: Mapping[str, Mapping[str, int]], doc: Document, index: int
) -> list[Problem]:
    """T2: a tenant lends at most what it is guaranteed."""
    problems = []
    for j, tenant in guaranteed:
        for gpu_class, limit in sorted(tenant.lendingLimit.items()):
            own = gpus[tenant.namespace].get(gpu_class, 0)
            if limit > own:
                problems.append(
                    doc.at(_at(index, j, "lendingLimit", gpu_class)).problem(
                        "T2",
                        f"tenant {tenant.namespace} may lend {limit} {gpu_class} GPUs, "
                        f"over its guarantee of {own}",
                        f"set lendingLimit.{gpu_class} to at most {own}",
                    )
                )
    return problems


def weight_warnings(cluster: Cluster, doc: Document, index: int) -> list[Problem]:
    """R49: a guaranteed tenant's weight other than 1 is its ClusterQueue's fairSharing.weight
    (T2), a group's its Cohort's (R51), which Kueue reads only with fair sharing on: recorded
    off (or not at all), it does nothing. A warning at the weight, in `taugen validate` and
    `taugen build` alike."""
    if cluster.weights_apply:
        return []
    return [
        doc.at(_at(index, j, "weight"))
        .problem(
            "R49",
            f"tenant {tenant.namespace} has weight {tenant.weight}, but cluster {cluster.name}'s Kueue is "
            "recorded without fair sharing (kueue.fairSharing, default off): its ClusterQueue's "
            "fairSharing.weight does nothing",
            "when the cluster's Kueue runs with fair sharing, record it as Kueue's configuration has it "
            "(kueue: {fairSharing: {enable: true}}); else remove the weight",
        )
        .as_warning()
        for j, tenant in enumerate(cluster.tenants)
        if tenant.guaranteed and tenant.weight != 1
    ] + [
        doc.at(["clusters", index, "groups", g, "weight"])
        .problem(
            "R49",
            f"group {group.name} has weight {group.weight}, but cluster {cluster.name}'s Kueue is "
            "recorded without fair sharing (kueue.fairSharing, default off): its Cohort's "
            "fairSharing.weight does nothing",
            "when the cluster's Kueue runs with fair sharing, record it as Kueue's configuration has it "
            "(kueue: {fairSharing: {enable: true}}); else remove the weight",
        )
        .as_warning()
        for g, group in enumerate(cluster.tenant_groups)
        if group.weight is not None and group.weight != 1
    ]
