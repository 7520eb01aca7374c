"""Render a diff as a pull-request comment: summary table, risks, collapsible details."""

from __future__ import annotations

import re

from taugen.commands.diff.render import prefixed, simulation_lines
from taugen.core.errors import escaped
from taugen.engines.changes.changes import MARKS
from taugen.engines.changes.engine import DiffResult, Entry
from taugen.engines.changes.risks import CLASSES

# a marker a CI step can find to update its own comment instead of adding one per push
MARKER = "<!-- taugen-diff -->"
OPEN_UP_TO = 30  # changes shown unfolded; a longer list stays folded under the risks
LIMIT = 60_000  # characters: a GitHub comment holds 65,536 (issue 21); the summary and risks first
RISKS_SHOWN = 50  # entries per risk class before "… and N more"
ARTIFACT = "the full diff: the `taugen-diff` artifact of this pipeline (`taugen diff -o text`)"
_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|~#])")
_REFERENCE = re.compile(r"([@#!~%$&])(?=\w)")


def markdown(result: DiffResult, limit: int = LIMIT) -> str:
    """The comment, at most `limit` characters: the summary, the risks, then as many of the
    changes as fit, folded, and how many more the full diff holds."""
    head, details, tail = _parts(result)
    budget = limit - _length(head) - _length(tail) - 400  # the closing lines and the "more" note
    shown: list[str] = []
    for line in details:
        if budget - len(line) - 1 < 0:
            break
        shown.append(line)
        budget -= len(line) + 1
    rest = sum(1 for line in details[len(shown) :] if line.startswith("- `"))
    if rest:
        shown += ["", f"**{rest} more changes**: see {ARTIFACT}.", "", "</details>", ""]
    return "\n".join([*head, *shown, *tail])[:limit]


def _length(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _parts(result: DiffResult) -> tuple[list[str], list[str], list[str]]:
    plan = result.plan()
    title = f"{plan.add} to add, {plan.change} to change, {plan.remove} to remove — {plan.risky} risky"
    lines = [MARKER, f"### taugen diff: {title if result.entries else 'no changes'}", ""]
    lines += [f"`{_code(result.base)}` → `{_code(result.head)}`", ""]
    if not result.entries:
        return [*lines, *_simulation(result)], [], []
    lines += ["| cluster | add | change | remove | risky |", "| --- | ---: | ---: | ---: | ---: |"]
    for cluster in result.clusters:
        p = result.plan(cluster)
        lines.append(f"| {_escape(cluster or '(root)')} | {p.add} | {p.change} | {p.remove} | {p.risky} |")
    return [*lines, "", *_risks(result), *_simulation(result)], _details(result), []


def _simulation(result: DiffResult) -> list[str]:
    """--simulate: the planned runs this change admits, leaves pending or moves (S6)."""
    found = simulation_lines(result)
    if not found:
        return []
    return [
        f"#### {_escape(found[1].strip())}",
        "",
        *(f"- {_escape(line.strip())}" for line in found[2:]),
        "",
    ]


def _risks(result: DiffResult) -> list[str]:
    lines: list[str] = []
    for risk in CLASSES:
        entries = result.with_risk(risk.id)
        if entries:
            lines += [f"**⚠ {risk.title}** (`{risk.id}`): {risk.explanation}", ""]  # our own markdown
            lines += [f"- {_escape(prefixed(e))}" for e in entries[:RISKS_SHOWN]]
            if len(entries) > RISKS_SHOWN:
                lines.append(f"- … and {len(entries) - RISKS_SHOWN} more: see {ARTIFACT}")
            lines.append("")
    return ["#### Risks", "", *lines] if lines else []


def _details(result: DiffResult) -> list[str]:
    opened = " open" if len(result.entries) <= OPEN_UP_TO else ""
    lines = [f"<details{opened}>", f"<summary>All changes ({len(result.entries)})</summary>", ""]
    for cluster in result.clusters:
        lines += [f"**{_escape(cluster)}**", ""] if cluster else []
        lines += [_item(e) for e in result.entries if e.ident.cluster == cluster]
        lines.append("")
    return [*lines, "</details>", ""]


def _item(entry: Entry) -> str:
    ids = sorted({r.id for r in entry.risks})
    tags = f" — ⚠ {', '.join(f'`{i}`' for i in ids)}" if ids else ""
    return f"- `{MARKS[entry.action]}` {_escape(entry.headline)}{tags}"


def _escape(words: str) -> str:
    """Text from the trees as plain text of one line (issue 32): control characters as their
    escapes, markdown's specials escaped, and a mention or reference (`@team`, `#12`, GitLab's
    `!12`, `~label`, `%milestone`, `$snippet`, `&epic`) broken by a zero-width space, so a
    value can start no heading and notify no one."""
    return _REFERENCE.sub("\\1\u200b", _SPECIAL.sub(r"\\\1", escaped(words)))


def _code(words: str) -> str:
    return escaped(words).replace("`", "'")
