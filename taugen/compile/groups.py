"""Tenant groups (SPEC §15, R51): nested cohorts, checked and resolved as T4 at each level.

A group's `guaranteed` is what its whole subtree holds; a member's share (a tenant's, or a child
group's) is resolved against the level above it: its group's guarantee of the class, else (the
group guarantees none of the class) the next group up that does, else the class quota. What a
group's members are not guaranteed is the group Cohort's own nominal quota: Kueue adds a
Cohort's nominalQuota to its children's (SubtreeQuota, pkg/cache/scheduler/resource_node.go),
so the subtree then holds exactly the group's guarantee.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from taugen.compile.guarantee_checks import LIMITS, part_text
from taugen.compile.quota import ClassQuota
from taugen.compile.shares import resolve_shares, scaled
from taugen.core.errors import Problem
from taugen.core.suggest import CLOSE, closest
from taugen.load.document import Document
from taugen.models.groups import TenantGroup
from taugen.models.project import Cluster, Tenant
from taugen.models.share import share_value

MAX_COHORT_NAME = 253  # Kueue's CohortReference: a DNS-1123 subdomain of at most 253 characters


def _at(index: int, g: int, *loc: str | int) -> list[str | int]:
    return ["clusters", index, "groups", g, *loc]


def cohort_name(cluster: Cluster, group: str) -> str:
    """R51: the group's Cohort."""
    return f"{cluster.clusterQueue}-{group}"


def check_groups(cluster: Cluster, doc: Document, index: int) -> list[Problem]:
    """R51: names, parents (known, no cycle) and tenants (known, guaranteed, in one group)."""
    groups = cluster.tenant_groups
    problems: list[Problem] = []
    names = [g.name for g in groups]
    tenants = {t.namespace: t for t in cluster.tenants}
    seen: dict[str, str] = {}
    for g, group in enumerate(groups):
        where = doc.at(_at(index, g, "name"))
        if group.name in names[:g]:
            problems.append(where.problem("R51", f"group {group.name} is declared twice", "rename one"))
        elif group.name in tenants:
            problems.append(
                where.problem(
                    "R51",
                    f"group {group.name} has the name of tenant {group.name}",
                    "give the group a name no tenant of the cluster has",
                )
            )
        elif len(name := cohort_name(cluster, group.name)) > MAX_COHORT_NAME:
            problems.append(
                where.problem(
                    "R51",
                    f"group {group.name}'s Cohort {name} is {len(name)} characters; Kueue limits it to "
                    f"{MAX_COHORT_NAME}",
                    "shorten the group's name or the cluster's clusterQueue",
                )
            )
        problems.extend(_parent(group, g, names, doc, index))
        for k, namespace in enumerate(group.tenants):
            problems.extend(
                _member(cluster, group, namespace, tenants.get(namespace), seen, doc, (index, g, k))
            )
            seen.setdefault(namespace, group.name)
    problems.extend(_cycles(groups, doc, index))
    problems.extend(_empty(groups, doc, index))
    return problems


def _parent(group: TenantGroup, g: int, names: Sequence[str], doc: Document, index: int) -> list[Problem]:
    if group.parent is None or group.parent in names:
        return []
    close = closest(group.parent, names, CLOSE)
    listed = ", ".join(sorted(set(names)))
    return [
        doc.at(_at(index, g, "parent")).problem(
            "R51",
            f"group {group.name}'s parent {group.parent} is not a group of the cluster",
            f"did you mean {close}?" if close else f"name one of the cluster's groups: {listed}",
        )
    ]


def _member(
    cluster: Cluster,
    group: TenantGroup,
    namespace: str,
    tenant: Tenant | None,
    seen: Mapping[str, str],
    doc: Document,
    at: tuple[int, int, int],
) -> list[Problem]:
    index, g, k = at
    where = doc.at(_at(index, g, "tenants", k))
    if tenant is None:
        known = [t.namespace for t in cluster.tenants]
        close = closest(namespace, known, CLOSE)
        hint = f"did you mean {close}?" if close else f"the cluster's tenants: {', '.join(known)}"
        return [
            where.problem(
                "R51", f"group {group.name} lists {namespace}, not a tenant of cluster {cluster.name}", hint
            )
        ]
    if namespace in seen:
        return [
            where.problem(
                "R51",
                f"tenant {namespace} is in group {seen[namespace]} already: "
                "its ClusterQueue joins one Cohort",
                f"remove {namespace} from one of the groups",
            )
        ]
    if not tenant.guaranteed:
        return [
            where.problem(
                "R51",
                f"tenant {namespace} in group {group.name} has no guarantee: it shares the ClusterQueue "
                f"{cluster.clusterQueue}, which stays in the cluster's cohort",
                f"give tenant {namespace} guaranteed (its own ClusterQueue, T2), or remove it from the group",
            )
        ]
    return []


def _cycles(groups: Sequence[TenantGroup], doc: Document, index: int) -> list[Problem]:
    """A parent chain that comes back to a group: Kueue accepts it and then admits nothing in
    the whole tree until it is removed (cohort_types.go); taugen refuses it at the parent that
    closes it (the group declared last in the cycle)."""
    parents = {g.name: g.parent for g in groups}
    position = {g.name: i for i, g in enumerate(groups)}
    problems, reported = [], set()
    for group in groups:
        chain = [group.name]
        while (up := parents.get(chain[-1])) is not None and up in parents and up not in chain:
            chain.append(up)
        if up is None or up not in chain:
            continue
        cycle = chain[chain.index(up) :]
        if frozenset(cycle) in reported:
            continue
        reported.add(frozenset(cycle))
        last = max(cycle, key=position.__getitem__)
        shown = " → ".join([*cycle, cycle[0]])
        problems.append(
            doc.at(_at(index, position[last], "parent")).problem(
                "R51",
                f"groups form a cycle of parents ({shown}): "
                "Kueue admits nothing in a cohort tree with a cycle",
                f"remove group {last}'s parent, or name a group outside the cycle",
            )
        )
    return problems


def _empty(groups: Sequence[TenantGroup], doc: Document, index: int) -> list[Problem]:
    """A group with no tenant in its subtree: a Cohort no ClusterQueue of the group can use."""
    holds = {g.name for g in groups if g.tenants}
    changed = True
    while changed:
        before = len(holds)
        holds |= {g.parent for g in groups if g.name in holds and g.parent is not None}
        changed = len(holds) != before
    return [
        doc.at(_at(index, g, "name")).problem(
            "R51",
            f"group {group.name} holds no tenant, neither its own nor through a child group",
            "list guaranteed tenants under tenants:, or name the group as another group's parent",
        )
        for g, group in enumerate(groups)
        if group.name not in holds
    ]


def check_group_classes(
    cluster: Cluster, quotas: Mapping[str, ClassQuota], doc: Document, index: int
) -> list[Problem]:
    """R51 as T4: a group's guarantee or limit for a class the cluster does not have."""
    problems = []
    known = sorted(quotas)
    for g, group in enumerate(cluster.tenant_groups):
        for name in ("guaranteed", *LIMITS):
            for gpu_class in getattr(group, name):
                if gpu_class not in quotas:
                    close = closest(gpu_class, known, CLOSE)
                    hint = (
                        f"did you mean {close}?"
                        if close
                        else f"the cluster's gpu-classes: {', '.join(known) or 'none'}"
                    )
                    problems.append(
                        doc.at(_at(index, g, name, gpu_class), key=True).problem(
                            "R51",
                            f"group {group.name}: cluster {cluster.name} has no gpu-class {gpu_class}",
                            hint,
                        )
                    )
    return problems


@dataclass(frozen=True)
class Member:
    """A tenant or a group at one level of the cohort tree: what T4 resolves."""

    name: str
    group: bool
    position: list[str | int]  # of its `guaranteed` in the project file
    guaranteed: Mapping[str, int | str]


@dataclass(frozen=True)
class LevelSum:
    """One level's members of one class, and the GPUs they share (root: the class quota)."""

    gpu_class: str
    group: TenantGroup | None  # None: the cluster's cohort
    group_index: int
    quota: int
    members: tuple[Member, ...]


@dataclass
class Resolved:
    """T4 at each level: name -> gpu-class -> GPUs, for tenants and for groups (distinct names)."""

    gpus: dict[str, dict[str, int]] = field(default_factory=dict)
    levels: list[LevelSum] = field(default_factory=list)


class GroupTree:
    """The cluster's groups and guaranteed tenants as levels (checked: no cycle, no unknown name)."""

    def __init__(self, cluster: Cluster, guaranteed: Sequence[tuple[int, Tenant]], index: int) -> None:
        self.groups = {g.name: (i, g) for i, g in enumerate(cluster.tenant_groups)}
        self.group_of = {ns: g.name for g in cluster.tenant_groups for ns in g.tenants}
        self.guaranteed = guaranteed
        self.index = index

    def members(self, level: str | None, gpu_class: str) -> list[Member]:
        """The members at `level` for the class; a group that guarantees none of it is
        transparent: its members are resolved at this level."""
        found = [
            Member(t.namespace, False, ["clusters", self.index, "tenants", j, "guaranteed"], t.guaranteed)
            for j, t in self.guaranteed
            if self.group_of.get(t.namespace) == level
        ]
        for i, group in self.groups.values():
            if group.parent != level:
                continue
            if gpu_class in group.guaranteed:
                found.append(Member(group.name, True, _at(self.index, i, "guaranteed"), group.guaranteed))
            else:
                found += self.members(group.name, gpu_class)
        return found

    def resolve(self, quotas: Sequence[ClassQuota]) -> Resolved:
        empty: dict[str, dict[str, int]] = {t.namespace: {} for _, t in self.guaranteed}
        out = Resolved(empty | {g: {} for g in self.groups})
        for quota in quotas:
            self._level(None, quota.gpus, quota.gpu_class, out)
        return out

    def _level(self, level: str | None, base: int, gpu_class: str, out: Resolved) -> None:
        members = [m for m in self.members(level, gpu_class) if gpu_class in m.guaranteed]
        shares: dict[str, Fraction] = {}
        for m in members:
            fraction = share_value(m.guaranteed[gpu_class])
            if fraction is None:
                out.gpus[m.name][gpu_class] = int(m.guaranteed[gpu_class])
            else:
                shares[m.name] = fraction
        out.gpus.update(
            {n: {**out.gpus[n], gpu_class: part} for n, part in resolve_shares(base, shares).items()}
        )
        i, group = self.groups[level] if level is not None else (-1, None)
        out.levels.append(LevelSum(gpu_class, group, i, base, tuple(members)))
        for m in members:
            if m.group:
                self._level(m.name, out.gpus[m.name][gpu_class], gpu_class, out)


def root_sums(resolved: Resolved) -> list[tuple[str, int, list[tuple[list[str | int], str, int | str, int]]]]:
    """The cluster's level of each class, as T4's check_sums reads it."""
    return [
        (
            level.gpu_class,
            level.quota,
            [
                (m.position, _shown(m), m.guaranteed[level.gpu_class], resolved.gpus[m.name][level.gpu_class])
                for m in level.members
            ],
        )
        for level in resolved.levels
        if level.group is None
    ]


def _shown(member: Member) -> str:
    return f"group {member.name}" if member.group else member.name


def check_group_sums(resolved: Resolved, doc: Document, index: int) -> list[Problem]:
    """R51: a group's members are guaranteed at most the group's guarantee of the class (the
    cluster's level is T4's check, compile/guarantee_checks.py)."""
    problems = []
    for level in sorted(resolved.levels, key=lambda lv: (lv.gpu_class, lv.group_index)):
        total = sum(resolved.gpus[m.name][level.gpu_class] for m in level.members)
        if level.group is None or total <= level.quota:
            continue
        shown = ", ".join(
            f"{_shown(m)} {part_text(m.guaranteed[level.gpu_class], resolved.gpus[m.name][level.gpu_class])}"
            for m in level.members
        )
        name, gpu_class = level.group.name, level.gpu_class
        written = level.group.guaranteed[gpu_class]
        problems.append(
            doc.at(_at(index, level.group_index, "guaranteed", level.gpu_class), key=True).problem(
                "R51",
                f"group {name} is guaranteed {part_text(written, level.quota)} {gpu_class} GPUs, "
                f"but its members are guaranteed {total} ({shown})",
                f"raise group {name}'s guarantee of {gpu_class} to {total}, or lower its members'",
            )
        )
    return problems


@dataclass(frozen=True)
class GroupClass:
    """One group's part of one gpu-class (R51): its subtree's guarantee, its Cohort's own
    nominal quota (what its members are not guaranteed), and its limits toward its parent."""

    gpu_class: str
    gpus: int  # the subtree's guarantee; without one written: what its members are guaranteed
    own: int  # the Cohort's nominalQuota
    own_slots: int  # floor(ready slots * own / class GPU quota), as T2
    written: int | str | None  # None: only a limit names the class
    borrowing_limit: int | None
    lending_limit: int | None
    slot_borrowing_limit: int | None
    slot_lending_limit: int | None


@dataclass(frozen=True)
class GroupGuarantee:
    name: str
    cohort: str  # <clusterQueue>-<name>
    parent: str  # the parent's Cohort: the cluster's (T1), or the parent group's
    tenants: tuple[str, ...]
    classes: tuple[GroupClass, ...]
    weight: int | None = None  # the Cohort's fairSharing.weight (R49, R51); None: not written

    def of(self, gpu_class: str) -> GroupClass | None:
        return next((c for c in self.classes if c.gpu_class == gpu_class), None)


def plan_groups(
    cluster: Cluster, resolved: Resolved, quotas: Mapping[str, ClassQuota]
) -> tuple[GroupGuarantee, ...]:
    """Each group's Cohort: its classes, quota and limits, in the order the project lists them."""
    held = {
        (level.group.name, level.gpu_class): sum(
            resolved.gpus[m.name][level.gpu_class] for m in level.members
        )
        for level in resolved.levels
        if level.group is not None
    }
    out = []
    for group in cluster.tenant_groups:
        named = [c for c in quotas if c in {*group.guaranteed, *group.borrowingLimit, *group.lendingLimit}]
        classes = []
        for gpu_class in named:
            quota = quotas[gpu_class]
            written = group.guaranteed.get(gpu_class)
            gpus = resolved.gpus[group.name].get(gpu_class, 0)
            own = gpus - held.get((group.name, gpu_class), 0) if written is not None else 0
            borrow, lend = group.borrowingLimit.get(gpu_class), group.lendingLimit.get(gpu_class)
            classes.append(
                GroupClass(
                    gpu_class,
                    gpus,
                    own,
                    scaled(quota.slots, own, quota.gpus),
                    written,
                    borrow,
                    lend,
                    None if borrow is None else scaled(quota.slots, borrow, quota.gpus),
                    None if lend is None else scaled(quota.slots, lend, quota.gpus),
                )
            )
        parent = cohort_name(cluster, group.parent) if group.parent else cluster.clusterQueue
        out.append(
            GroupGuarantee(
                group.name,
                cohort_name(cluster, group.name),
                parent,
                tuple(group.tenants),
                tuple(classes),
                group.weight,
            )
        )
    return tuple(out)


def check_group_lending(cluster: Cluster, resolved: Resolved, doc: Document, index: int) -> list[Problem]:
    """R51 as T2: a group lends at most what it is guaranteed."""
    problems = []
    for g, group in enumerate(cluster.tenant_groups):
        for gpu_class, limit in sorted(group.lendingLimit.items()):
            own = resolved.gpus[group.name].get(gpu_class, 0) if gpu_class in group.guaranteed else 0
            if limit > own:
                problems.append(
                    doc.at(_at(index, g, "lendingLimit", gpu_class)).problem(
                        "R51",
                        f"group {group.name} may lend {limit} {gpu_class} GPUs, over its guarantee of {own}",
                        f"set lendingLimit.{gpu_class} to at most {own}",
                    )
                )
    return problems
