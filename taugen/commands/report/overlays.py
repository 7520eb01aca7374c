"""The page's sections for `--diff` (the risk list, every change) and `--simulate` (every run)."""

from __future__ import annotations

from collections import Counter
from html import escape

from taugen.commands.report.model import DiffView, SimulationView
from taugen.commands.report.tables import table
from taugen.engines.changes.changes import MARKS


def diff_section(view: DiffView) -> str:
    add, change, remove, risky = view.plan
    parts = [
        '<section class="diff"><h3>Changes</h3>',
        f"<p><code>{escape(view.base)}</code> → <code>{escape(view.head)}</code>: "
        f"{add} to add, {change} to change, {remove} to remove — {risky} risky</p>",
    ]
    if view.risks:
        parts.append('<h4>Risks</h4><ul class="risks">')
        for group in view.risks:
            items = "".join(f"<li>{escape(h)}</li>" for h in group.headlines)
            parts.append(
                f'<li data-risk="{escape(group.id)}"><strong>{escape(group.title)}</strong> '
                f"(<code>{escape(group.id)}</code>): {escape(group.explanation)}<ul>{items}</ul></li>"
            )
        parts.append("</ul>")
    rows = [(MARKS[c.action], c.headline, ", ".join(c.risks)) for c in view.changes]
    parts.append(table("changes", "Every change", ("", "change", "risks"), rows, len(rows)))
    return "".join(parts) + "</section>"


def simulation_section(view: SimulationView) -> str:
    admitted = sum(r.status == "admitted" for r in view.runs)
    notes = "".join(f"<p class=note>{escape(n)}</p>" for n in view.notes)
    rows = [
        (
            r.name,
            r.namespace,
            r.status,
            r.flavor,
            ", ".join(f"{h} ({n} ranks)" if n > 1 else h for h, n in Counter(r.ranks).items()),
            ", ".join(f"{i}: {h}" for i, h in enumerate(r.ranks)),
            r.reason,
        )
        for r in view.runs
    ]
    head = ("run", "namespace", "status", "flavor", "hosts", "rank → host", "reason")
    caption = (
        f"Simulated runs of {view.source}: {admitted} admitted, {len(view.runs) - admitted} not admitted"
    )
    runs = table("runs", caption, head, rows)
    if view.totals:
        runs += table(
            "sim-totals", "GPUs per flavor", ("flavor", "requested", "admitted", "free"), view.totals
        )
    return f'<section class="simulation"><h3>Simulation</h3>{notes}{runs}</section>'
