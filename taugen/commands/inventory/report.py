"""The summary of `inventory import`: text for people, JSON for machines."""

from __future__ import annotations

from taugen.commands.inventory.refresh import ImportResult
from taugen.core.jsontext import dumps
from taugen.load.inventory import NATIVE


def _action(result: ImportResult) -> str:
    if not result.changed_file:
        return "unchanged"
    return "updated" if result.form == NATIVE else "replaced"


def as_json(result: ImportResult, shown: str) -> str:
    changes = result.changes
    return dumps(
        {
            "inventory": shown,
            "form": result.form,
            "action": _action(result),
            "written": result.written,
            "observedAt": {"from": result.observed_at[0], "to": result.observed_at[1]},
            "added": list(changes.added),
            "removed": list(changes.removed),
            "changed": {c.name: list(c.changes) for c in changes.changed},
            "unchanged": changes.unchanged,
        }
    )


def as_text(result: ImportResult, shown: str) -> str:
    changes = result.changes
    how = (
        "ClusterInventory: facts updated; comments, key order and other fields kept"
        if result.form == NATIVE
        else "NodeList: kubectl output holds nothing written by hand, so it is replaced by NODELIST"
    )
    lines = [f"inventory {shown} ({how})"]
    before, after = result.observed_at
    if before != after:
        lines.append(f"  observedAt {before} -> {after}")
    lines += [f"  added    {name}" for name in changes.added]
    lines += [f"  removed  {name}" for name in changes.removed]
    for node in changes.changed:
        lines.append(f"  changed  {node.name}: {'; '.join(node.changes)}")
    lines.append(f"  unchanged {changes.unchanged}")
    if result.written:
        lines.append(f"wrote {shown}")
    elif result.changed_file:
        lines.append("dry run: nothing written")
    else:
        lines.append("nothing to write: the inventory already says this")
    return "\n".join(lines) + "\n"
