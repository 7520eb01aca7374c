"""Issue 36's targets: each figure's ratio to its floor, or to a baseline run, with met or not.

At 100,000 nodes the issue asks cold build and `build --check` ≤ 0.30 times the floor (libyaml
parsing the inventory plus dumping the tree), `validate` ≤ 0.50 times the tree's floor (libyaml
parsing the tree), `diff` of a changed fleet ≤ 0.50 times the floor; no-op, startup and peak memory
no worse than a baseline: the results JSON of an earlier run (`run.py --baseline FILE`), the
case of the same size and form, else, for the 100,000-node native fleet, the figures the issue
itself measured (ISSUE). The machine is shared: a baseline figure counts as kept within NOISE (the
floor, which runs no taugen code, moves by about 10 % between runs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

FLOOR_TARGETS = {  # figure -> (floor, at most this many times it)
    "cold": ("floor", 0.30),
    "check": ("floor", 0.30),
    "validate": ("floor_tree", 0.50),
    "diff_changed": ("floor", 0.50),
}
KEPT = ("noop", "startup", "peak")  # no worse than the baseline's
# The issue's own run (main before it, `--sizes 10000,100000 --repeat 1`): its "keep" row
ISSUE = {("native", 100_000): {"noop": 0.73, "startup": 0.07, "peak": 656.0 * 2**20}}
NOISE = 1.10
LABELS = {
    "cold": "cold build",
    "check": "build --check",
    "validate": "validate",
    "diff_changed": "diff (changed fleet)",
    "noop": "no-op build",
    "startup": "startup (--version)",
    "peak": "peak memory (any command)",
}

Case = Mapping[str, Any]  # one entry of a results JSON's "cases" (report.Case.as_json)


def issue_targets(cases: Sequence[Case], baseline: Sequence[Case] = ()) -> list[dict[str, Any]]:
    """One row per target and case: the figure, what it is divided by, the ratio and the limit."""
    before = {(c["form"], c["size"]): c for c in baseline}
    rows: list[dict[str, Any]] = []
    for case in cases:
        where, medians = f"{case['form']} {case['size']}", case["median_seconds"]
        for figure, (floor, limit) in FLOOR_TARGETS.items():
            rows.append(_row(figure, where, medians[figure], floor, medians[floor], limit))
        old = before.get((case["form"], case["size"]))
        issue = ISSUE.get((case["form"], case["size"]))
        for figure in KEPT:
            now = _kept(case, figure)
            if old is not None:
                rows.append(_row(figure, where, now, "baseline", _kept(old, figure), NOISE))
            elif issue is not None:
                rows.append(_row(figure, where, now, "issue", issue[figure], NOISE))
            else:
                rows.append(_row(figure, where, now, "baseline", None, NOISE))
    return rows


def _kept(case: Case, figure: str) -> float:
    if figure == "peak":
        return float(max(case["peak_bytes"].values()))
    return float(case["median_seconds"][figure])


def _row(
    figure: str, where: str, value: float, over: str, base: float | None, limit: float
) -> dict[str, Any]:
    ratio = None if base is None else value / base
    met = None if ratio is None else ratio <= limit
    return {
        "target": figure,
        "at": where,
        "value": value,
        "over": over,
        "base": base,
        "ratio": ratio,
        "limit": limit,
        "met": met,
    }


def issue_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as the benchmark prints them; a kept figure with no baseline says so."""
    lines = ["issue 36 targets (ratio = figure ÷ its floor or the baseline's)", ""]
    lines.append(f"{'':<28}{'at':>14}{'figure':>12}{'÷':>22}{'ratio':>8}{'target':>9}  result")
    for row in rows:
        label = LABELS[row["target"]]
        value = _shown(row["target"], row["value"])
        if row["base"] is None:
            lines.append(f"{label:<28}{row['at']:>14}{value:>12}{'no baseline':>22}{'':>8}{'':>9}  -")
            continue
        base = f"{row['over']} {_shown(row['target'], row['base'])}"
        result = "met" if row["met"] else "not met"
        lines.append(
            f"{label:<28}{row['at']:>14}{value:>12}{base:>22}{row['ratio']:>8.2f}"
            f"{'≤ ' + format(row['limit'], '.2f'):>9}  {result}"
        )
    return "\n".join(lines) + "\n"


def _shown(figure: str, value: float) -> str:
    return f"{value / 2**20:.0f} MiB" if figure == "peak" else f"{value:.2f} s"
