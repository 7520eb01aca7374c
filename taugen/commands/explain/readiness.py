"""Where a node's readiness and site come from, in either inventory form (§1.2, R11, R27)."""

from __future__ import annotations

from typing import Any

from taugen.load.inventory import REGION_LABEL, NodeFacts


def _entry(facts: NodeFacts) -> dict[str, Any]:
    data: Any = facts.doc.data
    for step in facts.base:
        data = data[step]
    return data if isinstance(data, dict) else {}


def ready_reason(facts: NodeFacts) -> str:
    entry = _entry(facts)
    if facts.native:
        if "ready" not in entry:
            return "Ready: the inventory's default (no `ready:` on the node)"
        state = "Ready" if facts.ready else "not Ready"
        return f"{state}: `ready: {str(facts.ready).lower()}` in the inventory"
    if (entry.get("spec") or {}).get("unschedulable") is True:
        return "not Ready: cordoned (spec.unschedulable: true)"
    if facts.ready:
        return "Ready: condition Ready is True and the node is schedulable"
    return "not Ready: condition Ready is not True"


def site_source(facts: NodeFacts) -> str:
    if facts.site is None:
        return "the inventory's default site (`site:` at the top)"
    if facts.native:
        return "the node's `site:`"
    return f"the node's {REGION_LABEL} label"
