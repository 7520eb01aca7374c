"""A `taugen diff` result as the report draws it: marks on hosts, the risk list, every change."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from taugen.commands.report.model import ChangeRow, DiffView, Host, HostMark, Mark, RiskGroup
from taugen.commands.report.topology import CONTRACT_PATH, ghost
from taugen.engines.changes.engine import DiffResult, Entry
from taugen.engines.changes.risks import CLASSES


def diff_view(result: DiffResult, cluster: str, only: bool) -> DiffView:
    """The part of the diff about `cluster` (its folder under the output root; the root itself
    when the diff compared one cluster's folder and the report shows one cluster)."""
    entries = [e for e in result.entries if e.ident.cluster == cluster or (only and e.ident.cluster == "")]
    plan = result.plan(cluster)
    return DiffView(
        result.base,
        result.head,
        (plan.add, plan.change, plan.remove, plan.risky),
        tuple(_risks(entries)),
        tuple(ChangeRow(e.action, e.headline, tuple(sorted({r.id for r in e.risks}))) for e in entries),
        _marks(entries),
    )


def removed_hosts(
    result: DiffResult, view: DiffView, levels: Sequence[tuple[str, str]] = CONTRACT_PATH
) -> list[Host]:
    """Nodes the change removes, to draw where the base placed them (at the tree's `levels`)."""
    found = []
    for change in result.changes:
        if change.ident.kind == "Node" and view.marks.get(change.ident.name) == HostMark("removed", ""):
            host = ghost(change.ident.name, _labels(change.old), levels)
            found += [host] if host is not None else []
    return found


def _risks(entries: list[Entry]) -> Iterable[RiskGroup]:
    for risk in CLASSES:
        headlines = tuple(e.headline for e in entries if any(r.id == risk.id for r in e.risks))
        if headlines:
            yield RiskGroup(risk.id, risk.title, risk.explanation, headlines)


def _marks(entries: list[Entry]) -> dict[str, HostMark]:
    by_node: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.ident.kind == "Node":
            by_node[entry.ident.name].append(entry)
    return {name: _mark(found) for name, found in sorted(by_node.items())}


def _mark(entries: list[Entry]) -> HostMark:
    action = entries[0].action
    if action != "change":
        return HostMark("added" if action == "add" else "removed", "")
    moved = any(r.id == "placement" for e in entries for r in e.risks)
    kind: Mark = "moved" if moved else "changed"
    return HostMark(kind, "; ".join(e.headline for e in entries))


def _labels(obj: Mapping[str, Any] | None) -> dict[str, str]:
    labels = (obj or {}).get("metadata", {}).get("labels", {})
    return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, Mapping) else {}
