"""The plain tables of the page: everything the tree draws, for screen readers and text search.

Long tables stop at `TABLE_ROWS` rows and say so; the page's selection panel lists every host
of the domain selected."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from html import escape

from taugen.commands.report.model import ClusterSection, Host, HostMark, ReportDomain

TABLE_ROWS = 2000


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
    head = (
        "gpu-class",
        "GPU quota",
        "high-water mark",
        "GPUs in inventory",
        "Ready slots",
        "nodes",
        "not Ready",
    )
    rows = [
        (
            c.gpu_class,
            c.quota,
            "—" if c.high_water is None else c.high_water,
            c.gpus,
            c.ready_slots,
            c.nodes,
            c.not_ready,
        )
        for c in view.classes
    ]
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
    placed = _placements(view)
    marks: Mapping[str, HostMark] = view.diff.marks if view.diff else {}
    rows = []
    for site in view.sites:
        for network in site.children:
            for rack in network.children:
                rows += [
                    _host_row(h, (site.name, network.name, rack.name), marks, placed) for h in rack.hosts
                ]
    head = (
        "host",
        "gpu-class",
        "GPUs",
        "Ready",
        "site",
        "network domain",
        "accelerator domain",
        "change",
        "runs",
    )
    return table("hosts", "Hosts", head, rows[:TABLE_ROWS], len(rows))


def _host_row(
    host: Host, path: tuple[str, str, str], marks: Mapping[str, HostMark], placed: dict[str, list[str]]
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
