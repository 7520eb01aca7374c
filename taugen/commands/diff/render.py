"""Render a diff for a terminal (text, coloured when asked) or for machines (JSON)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from taugen.core.errors import escaped
from taugen.engines.changes.changes import MARKS
from taugen.engines.changes.engine import ChangePlan, DiffResult, Entry
from taugen.engines.changes.risks import CLASSES
from taugen.engines.changes.words import describe

_COLOURS = {"add": "32", "change": "33", "remove": "31", "risk": "1;31", "dim": "2"}


def plan_line(plan: ChangePlan) -> str:
    return f"Plan: {plan.add} to add, {plan.change} to change, {plan.remove} to remove — {plan.risky} risky"


def prefixed(entry: Entry) -> str:
    """The headline with its cluster, for lists that mix clusters."""
    cluster = escaped(entry.ident.cluster)  # a folder's name, from the tree
    return f"{cluster}: {entry.headline}" if cluster else entry.headline


def text(result: DiffResult, color: bool = False) -> str:
    def paint(words: str, style: str) -> str:
        return f"\033[{_COLOURS[style]}m{words}\033[0m" if color else words

    lines = [f"{plan_line(result.plan())}   ({escaped(result.base)} → {escaped(result.head)})"]
    if not result.entries:
        return "\n".join([*lines, "No changes.", *simulation_lines(result)]) + "\n"
    risky = [(c, result.with_risk(c.id)) for c in CLASSES if result.with_risk(c.id)]
    if risky:
        lines += ["", "Risks"]
    for risk, entries in risky:
        lines.append(f"  {paint(risk.title, 'risk')} [{risk.id}]: {risk.explanation}")
        lines += [f"    {prefixed(e)}" for e in entries]
    lines += ["", "Changes"]
    for cluster in result.clusters:
        indent = "    " if cluster else "  "
        lines += [f"  {escaped(cluster)}"] if cluster else []
        for e in (e for e in result.entries if e.ident.cluster == cluster):
            tags = paint(f"  [{', '.join(sorted({r.id for r in e.risks}))}]", "dim") if e.risks else ""
            lines.append(f"{indent}{paint(MARKS[e.action], e.action)} {e.headline}{tags}")
    return "\n".join([*lines, *simulation_lines(result)]) + "\n"


def simulation_lines(result: DiffResult) -> list[str]:
    """--simulate: the planned runs whose admission or hosts the change moves (S6)."""
    sim = result.simulation
    if sim is None:
        return []
    head = f"Simulation ({sim.workloads} on {sim.cluster}, {sim.runs} runs)"
    if not sim.impacts:
        return ["", head, "  no run changes between admitted and pending, and none moves hosts"]
    return ["", head, *(f"  {i.headline}" for i in sim.impacts)]


def as_json(result: DiffResult) -> str:
    body = {
        "base": result.base,
        "head": result.head,
        "plan": asdict(result.plan()),
        "clusters": {c: asdict(result.plan(c)) for c in result.clusters},
        "risks": [
            {"id": c.id, "title": c.title, "explanation": c.explanation, "count": len(result.with_risk(c.id))}
            for c in CLASSES
            if result.with_risk(c.id)
        ],
        "changes": [_entry(e) for e in result.entries],
    }
    if result.simulation is not None:
        body["simulation"] = _simulation(result)
    return json.dumps(body, indent=2, ensure_ascii=False, default=_plain) + "\n"


def _entry(entry: Entry) -> dict[str, Any]:
    ident, field = entry.ident, entry.field
    return {
        "cluster": ident.cluster,
        "apiVersion": ident.api_version,
        "kind": ident.kind,
        "namespace": ident.namespace or None,
        "name": ident.name,
        "object": entry.action,
        "headline": entry.headline,
        "field": describe(ident.kind, field.path) if field else None,
        "path": list(field.path) if field else None,
        "change": field.action if field else None,
        "old": field.old if field else None,
        "new": field.new if field else None,
        "risks": [{"id": r.id, "reason": r.reason} for r in entry.risks],
    }


def _simulation(result: DiffResult) -> dict[str, Any]:
    sim = result.simulation
    assert sim is not None
    return {
        "workloads": sim.workloads,
        "cluster": sim.cluster,
        "runs": sim.runs,
        "changed": [
            {
                "run": i.key,
                "before": {"status": i.before.status, "hosts": dict(i.before.hosts())},
                "after": {
                    "status": i.after.status,
                    "hosts": dict(i.after.hosts()),
                    "reason": i.after.reason or None,
                },
                "headline": i.headline,
            }
            for i in sim.impacts
        ],
    }


def _plain(value: Any) -> Any:
    """Sets as sorted lists; anything else YAML can hold (a timestamp) as text."""
    if isinstance(value, frozenset | set):
        return sorted(value, key=str)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)
