"""Issue 36: the benchmark prints each target's ratio to its floor or to a baseline run, with
met or not met, from a recorded results dict (no timing measured or asserted here)."""

from __future__ import annotations

from typing import Any

from benchmarks.issue36 import issue_table, issue_targets

MIB = 2**20


def case(size: int, **seconds: float) -> dict[str, Any]:
    medians = {"cold": 4.5, "check": 3.0, "validate": 4.0, "diff_changed": 8.0, "noop": 0.7, "startup": 0.07}
    medians |= {"floor": 15.0, "floor_tree": 9.0} | seconds
    return {"form": "native", "size": size, "median_seconds": medians, "peak_bytes": {"cold": 600 * MIB}}


def test_each_target_is_the_figure_over_its_floor_with_met_or_not() -> None:
    rows = issue_targets([case(100_000)], [case(100_000, noop=0.5, startup=0.07)])
    got = {(r["target"], r["over"], round(r["ratio"], 3), r["limit"], r["met"]) for r in rows}
    assert got == {
        ("cold", "floor", 0.3, 0.30, True),  # 4.5 ÷ 15: exactly the limit is met
        ("check", "floor", 0.2, 0.30, True),
        ("validate", "floor_tree", 0.444, 0.50, True),
        ("diff_changed", "floor", 0.533, 0.50, False),
        ("noop", "baseline", 1.4, 1.10, False),  # 0.7 s against the baseline's 0.5 s
        ("startup", "baseline", 1.0, 1.10, True),
        ("peak", "baseline", 1.0, 1.10, True),
    }
    assert {r["at"] for r in rows} == {"native 100000"}


def test_the_printed_table_names_every_target_its_ratio_and_result() -> None:
    text = issue_table(issue_targets([case(100_000)], [case(100_000, noop=0.5)]))
    lines = {line.split("  ")[0]: line for line in text.splitlines()[3:]}
    assert set(lines) == {
        "cold build",
        "build --check",
        "validate",
        "diff (changed fleet)",
        "no-op build",
        "startup (--version)",
        "peak memory (any command)",
    }
    assert lines["cold build"].endswith("0.30   ≤ 0.30  met")
    assert lines["diff (changed fleet)"].endswith("0.53   ≤ 0.50  not met")
    assert "floor_tree 9.00 s" in lines["validate"]
    assert lines["no-op build"].endswith("1.40   ≤ 1.10  not met")
    assert "baseline 600 MiB" in lines["peak memory (any command)"]


def test_without_a_baseline_the_kept_figures_are_shown_unjudged() -> None:
    rows = issue_targets([case(10_000)], [case(100_000)])  # a baseline of another size does not count
    kept = [r for r in rows if r["over"] == "baseline"]
    assert [(r["target"], r["base"], r["ratio"], r["met"]) for r in kept] == [
        ("noop", None, None, None),
        ("startup", None, None, None),
        ("peak", None, None, None),
    ]
    text = issue_table(rows)
    assert [line.split()[-1] for line in text.splitlines() if "no baseline" in line] == ["-", "-", "-"]


def test_without_a_baseline_the_100k_native_fleet_keeps_the_issues_own_figures() -> None:
    """Issue 36 measured a no-op of 0.73 s, `--version` 0.07 s and a peak of 656 MiB: the row
    'keep' is judged against those when no earlier run is given."""
    measured = case(100_000, noop=0.80, startup=0.05)
    rows = issue_targets([measured | {"peak_bytes": {"cold": 700 * MIB}}])
    kept = [r for r in rows if r["target"] in ("noop", "startup", "peak")]
    assert [(r["target"], r["over"], r["base"], round(r["ratio"], 3), r["met"]) for r in kept] == [
        ("noop", "issue", 0.73, 1.096, True),  # within the machine's 10 %
        ("startup", "issue", 0.07, 0.714, True),
        ("peak", "issue", 656 * MIB, 1.067, True),
    ]
    worse = issue_targets([case(100_000, noop=0.81) | {"peak_bytes": {"cold": 730 * MIB}}])
    assert [(r["target"], r["met"]) for r in worse if r["over"] == "issue"] == [
        ("noop", False),
        ("startup", True),
        ("peak", False),
    ]
    text = issue_table(rows)
    assert "issue 656 MiB" in text
    assert "issue 0.73 s" in text
