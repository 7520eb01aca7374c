"""The plain tables of the page: everything the tree draws, for screen readers and text search.

Long tables stop at `TABLE_ROWS` rows and say so; the page's selection panel lists every host
of the domain selected."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from html import escape

from taugen.commands.report.model import ClusterSection, Host, HostMark, ReportDomain
from taugen.commands.report.topology import CONTRACT_PATH

TABLE_ROWS = 2000
# §2's levels as the host table heads them; a declared level (R42) goes by its own name
_HEADS = {"site": "site", "network-domain": "network domain", "accelerator-domain": "accelerator domain"}


def table(
    kind: str, caption: str, head: Sequence[str], rows: Iterable[Sequence[object]], total: int = 0
) -> str:
    shown = list(rows)
    note = f" (the first {len(shown):,} of {total:,})" if total > len(shown) else ""
    parts = [f'<table class="{kind}"><caption>{escape(caption)}{note}</caption><thead><tr>']
    parts += [f'<th scope="col">{escape(h)}</th>' for h in head]
    parts.append("</tr></thead><tbody>")
    for row in shown:
        parts.append("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return escape(str(value))


def class_table(view: ClusterSection) -> str:
    head: tuple[str, ...] = (
        "gpu-class",
        "GPU quota",
        "high-water mark",
        "GPUs in inventory",
        "Ready slots",
        "nodes",
        "not Ready",
    )
    extra = any(c.extra for c in view.classes)  # R44: one more column, only where there is quota
    rows = [
        (
            c.gpu_class,
            c.quota,
            "—" if c.high_water is None else c.high_water,
            c.gpus,
            c.ready_slots,
            c.nodes,
            c.not_ready,
            *([", ".join(f"{r} {q:,}" for r, q in c.extra) or "—"] if extra else []),
        )
        for c in view.classes
    ]
    if extra:
        head = (*head, "extra quota (R44)")
    return table(
        "classes", "Per gpu-class capacity (R26 quota, lock high-water mark, R27 Ready slots)", head, rows
    )


def tenant_table(view: ClusterSection) -> str:
    """§10: nothing for a cluster without guarantees (its page stays as it was)."""
    if not view.tenants:
        return ""
    head = ("tenant", "gpu-class", "guaranteed GPUs", "may borrow", "shared queue GPUs")
    rows = [(t.namespace, t.gpu_class, t.guaranteed, t.borrowable, t.shared) for t in view.tenants]
    caption = "Per tenant and gpu-class: guaranteed (T2), borrowable from the cohort, shared (T3)"
    return table("tenants", caption, head, rows)


def flavor_order_table(view: ClusterSection) -> str:
    """R47: the queues' flavor order, each fallback list that made it, and each tenant's
    flavorFungibility; nothing when no list or policy says anything (the page stays as it was)."""
    order = view.flavor_order
    if order is None:
        return ""
    rows = [("every ClusterQueue", "flavor order", ", ".join(order.flavors))]
    rows += [(f"profile {name}", "gpu_class", ", ".join(classes)) for name, classes in order.lists]
    rows += [
        (f"tenant {namespace}", "flavorFungibility", ", ".join(f"{k} {v}" for k, v in policy.items()))
        for namespace, policy in order.fungibility
    ]
    caption = (
        "Flavor order (R47): Kueue tries each queue's flavors in this order; the profiles' lists make "
        "it (classes no list orders: by name, R25)"
    )
    return table("flavor-order", caption, ("where", "what", "value"), rows)


def group_table(view: ClusterSection) -> str:
    """R51: per group and gpu-class; nothing for a cluster without groups."""
    if not view.groups:
        return ""
    head = (
        "group",
        "Cohort",
        "parent",
        "tenants",
        "gpu-class",
        "guaranteed GPUs (subtree)",
        "its own",
        "borrowingLimit",
        "lendingLimit",
        "may borrow",
    )
    rows = [
        (
            g.group,
            g.cohort,
            g.parent,
            ", ".join(g.tenants) or "—",
            g.gpu_class,
            "—" if g.guaranteed is None else g.guaranteed,
            g.own,
            "—" if g.borrowing_limit is None else g.borrowing_limit,
            "—" if g.lending_limit is None else g.lending_limit,
            g.borrowable,
        )
        for g in view.groups
    ]
    caption = (
        "Groups (R51): each group's Cohort under its parent, what its subtree is guaranteed and holds of "
        "its own, and what it may borrow from the rest of the tree"
    )
    return table("groups", caption, head, rows)


def domain_table(view: ClusterSection) -> str:
    rows = list(_domain_rows(view.sites, ()))
    head = ("level", "domain", "hosts", "GPUs", "Ready slots", "not Ready", "GPUs by class")
    return table("domains", "Domains", head, rows[:TABLE_ROWS], len(rows))


def _domain_rows(domains: Sequence[ReportDomain], path: tuple[str, ...]) -> Iterator[tuple[object, ...]]:
    for d in domains:
        s = d.stats
        classes = ", ".join(f"{k} {v:,}" for k, v in s.by_class.items())
        yield (d.level, " / ".join((*path, d.name)), s.hosts, s.gpus, s.ready_slots, s.not_ready, classes)
        yield from _domain_rows(d.children, (*path, d.name))


def host_table(view: ClusterSection) -> str:
    """One row per host, with its domain at each level (the cluster's levels, R42)."""
    placed = _placements(view)
    marks: Mapping[str, HostMark] = view.diff.marks if view.diff else {}
    rows = [_host_row(h, path, marks, placed) for path, h in _leaves(view.sites, ())]
    levels = tuple(_HEADS.get(name, name) for name, _ in view.levels or CONTRACT_PATH)
    head = ("host", "gpu-class", "GPUs", "Ready", *levels, "change", "runs")
    return table("hosts", "Hosts", head, rows[:TABLE_ROWS], len(rows))


def outside_table(view: ClusterSection) -> str:
    """R42: GPU nodes without a declared level's label, which Kueue's topology leaves out (their
    GPUs still count as quota); nothing when there are none (a page without levels is as it was)."""
    if not view.outside:
        return ""
    rows = [
        (
            o.host.name,
            o.host.gpu_class,
            o.host.gpus,
            "Ready" if o.host.ready else "not Ready",
            ", ".join(o.missing),
        )
        for o in view.outside
    ]
    caption = (
        "Outside the topology: GPU nodes without a declared level's label, which Kueue leaves out of "
        "topology-aware scheduling (R42); their GPUs count as quota"
    )
    return table("outside", caption, ("host", "gpu-class", "GPUs", "Ready", "lacks"), rows)


def _leaves(domains: Sequence[ReportDomain], path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Host]]:
    for d in domains:
        yield from (((*path, d.name), h) for h in d.hosts)
        yield from _leaves(d.children, (*path, d.name))


def _host_row(
    host: Host, path: tuple[str, ...], marks: Mapping[str, HostMark], placed: dict[str, list[str]]
) -> tuple[object, ...]:
    mark = marks.get(host.name)
    change = f"{mark.mark}: {mark.detail}" if mark and mark.detail else (mark.mark if mark else "")
    ready = "removed" if host.removed else ("Ready" if host.ready else "not Ready")
    return (host.name, host.gpu_class, host.gpus, ready, *path, change, ", ".join(placed.get(host.name, [])))


def _placements(view: ClusterSection) -> dict[str, list[str]]:
    placed: dict[str, list[str]] = {}
    for run in view.simulation.runs if view.simulation else ():
        for rank, host in enumerate(run.ranks):
            placed.setdefault(host, []).append(f"{run.name}#{rank}")
    return placed
