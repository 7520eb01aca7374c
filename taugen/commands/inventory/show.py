"""`taugen inventory show`: hosts, GPUs and Ready hosts per domain; quota and slots per class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taugen.context.cluster import ClusterView
from taugen.core.jsontext import dumps
from taugen.core.timestamps import utc_text
from taugen.resolve.counts import DomainCount, count_domains
from taugen.resolve.domains import SINGLETON


@dataclass(frozen=True)
class InventoryClassRow:
    gpu_class: str
    nodes: int
    gpus: int  # summed allocatable in the inventory
    ready_slots: int  # R27
    quota: int  # R26: what a build writes
    high_water: int | None  # the lock's mark; None before the first build
    extra: tuple[tuple[str, int], ...] = ()  # R44: each extra resource's nominal quota, in order


@dataclass(frozen=True)
class InventorySummary:
    cluster: str
    inventory: str
    observed_at: str
    nodes: int
    ready: int
    gpu_nodes: int
    domains: tuple[DomainCount, ...]
    classes: tuple[InventoryClassRow, ...]


def summarize(view: ClusterView) -> InventorySummary:
    nodes = view.resolved.nodes
    classes = tuple(
        InventoryClassRow(
            q.gpu_class,
            q.nodes,
            q.observed_gpus,
            q.slots,
            q.gpus,
            view.high_water.get(q.gpu_class),
            tuple(q.extra.items()),
        )
        for q in view.quotas
    )
    return InventorySummary(
        view.name,
        view.relative(view.resolved.inventory.path),
        utc_text(view.resolved.observed_at),
        len(nodes),
        sum(n.ready for n in nodes),
        sum(n.gpu_class is not None for n in nodes),
        tuple(count_domains(nodes, view.resolved.levels)),
        classes,
    )


def as_json(summary: InventorySummary) -> str:
    return dumps(
        {
            "cluster": summary.cluster,
            "inventory": summary.inventory,
            "observedAt": summary.observed_at,
            "nodes": summary.nodes,
            "readyNodes": summary.ready,
            "gpuNodes": summary.gpu_nodes,
            "domains": [d.as_json() for d in summary.domains],
            "classes": [
                {
                    "gpuClass": c.gpu_class,
                    "nodes": c.nodes,
                    "gpus": c.gpus,
                    "readySlots": c.ready_slots,
                    "gpuQuota": c.quota,
                    "highWaterMark": c.high_water,
                    **({"extraQuota": dict(c.extra)} if c.extra else {}),
                }
                for c in summary.classes
            ],
        }
    )


def as_table(summary: InventorySummary) -> str:
    head = [
        f"cluster {summary.cluster}: {summary.inventory}, observed {summary.observed_at}",
        f"{summary.nodes} nodes, {summary.ready} Ready, {summary.gpu_nodes} with a gpu-class",
    ]
    rows = [("level", "domain", "hosts", "GPUs", "Ready")] + [
        (d.shown_level, name, str(d.hosts), str(d.gpus), str(d.ready))
        for d, name in _collapsed(summary.domains)
    ]
    extra = any(c.extra for c in summary.classes)  # R44: one more column, only where there is quota
    quota: list[tuple[str, ...]] = [
        (
            "gpu-class",
            "nodes",
            "GPUs",
            "quota",
            "high-water",
            "Ready slots",
            *(["extra quota"] if extra else []),
        )
    ]
    quota += [
        (
            c.gpu_class,
            str(c.nodes),
            str(c.gpus),
            str(c.quota),
            _mark(c.high_water),
            str(c.ready_slots),
            *([", ".join(f"{r} {q}" for r, q in c.extra) or "-"] if extra else []),
        )
        for c in summary.classes
    ]
    return "\n".join([*head, "", *_table(rows, 2), "", *_table(quota, 1)]) + "\n"


def _collapsed(domains: tuple[DomainCount, ...]) -> list[tuple[DomainCount, str]]:
    """Singleton domains (one host each, R14) are summed into one row per level and site."""
    rows: list[tuple[DomainCount, str]] = []
    singles: dict[tuple[str, str], DomainCount] = {}
    for d in domains:
        if not d.singleton:
            rows.append((d, d.name))
            continue
        key = (d.level, d.path[0])
        old = singles.get(key, DomainCount(d.level, d.path, 0, 0, 0, d.declared))
        singles[key] = DomainCount(
            d.level, d.path, old.hosts + 1, old.gpus + d.gpus, old.ready + d.ready, d.declared
        )
    for (_level, site), d in singles.items():
        rows.append((d, f"{site}: {d.hosts} {SINGLETON}… domains"))
    order = [d.level for d in domains]
    return sorted(rows, key=lambda row: order.index(row[0].level))


def _mark(value: int | None) -> str:
    return "-" if value is None else str(value)


def _table(rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Columns padded to their widest cell: the first `left` to the left, numbers to the right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]
