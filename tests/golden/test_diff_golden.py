"""Snapshots of every format, compared exactly. Regenerate them, then read the diff, with:

TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/golden/test_diff_golden.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from taugen.commands.diff.markdown import markdown
from taugen.commands.diff.render import as_json, text
from taugen.engines.changes.engine import DiffOptions, DiffResult, diff

ROOT = Path(__file__).resolve().parents[1]
CASES, GOLDEN = ROOT / "cases" / "diff", ROOT / "golden" / "diff"
REGENERATE = os.environ.get("TAUGEN_REGENERATE_GOLDEN") == "1"
FORMATS: dict[str, Callable[[DiffResult], str]] = {
    "txt": text,
    "color.txt": lambda r: text(r, color=True),
    "md": markdown,
    "json": as_json,
}
# the review pair (a quota bump, a new GPU class, a node on another fabric), a pair with two
# risk classes on one object, and a pair without a change
SNAPSHOTS = [
    (case, suffix) for case in ("review", "priority-value", "moved-between-files") for suffix in FORMATS
] + [("priority-tiers", "txt")]  # R50: a tier added, removed and revalued, as a reviewer reads it


@pytest.mark.parametrize(("case", "suffix"), SNAPSHOTS, ids=[f"{c}.{s}" for c, s in SNAPSHOTS])
def test_snapshot(case: str, suffix: str) -> None:
    rendered = FORMATS[suffix](diff(DiffOptions("base", "head", cwd=CASES / case)))
    golden = GOLDEN / f"{case}.{suffix}"
    if REGENERATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(rendered, encoding="utf-8")
        pytest.skip(f"regenerated {golden.relative_to(ROOT)}")
    assert golden.is_file(), f"missing {golden}: run `TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest {__file__}`"
    assert rendered == golden.read_text(encoding="utf-8")


def test_every_golden_file_is_checked() -> None:
    """A stale snapshot left behind would look checked while nothing reads it."""
    expected = {f"{case}.{suffix}" for case, suffix in SNAPSHOTS}
    assert {p.name for p in GOLDEN.iterdir()} == expected


def test_the_json_snapshot_holds_the_same_facts_as_the_text() -> None:
    body = json.loads((GOLDEN / "review.json").read_text(encoding="utf-8"))
    assert body["plan"] == {"add": 7, "change": 4, "remove": 0, "risky": 1}
    assert [c["headline"] for c in body["changes"] if c["risks"]] == [
        "Node aks-h200-16180339-vmss000003: network-domain ib-fabric-3 → ib-fabric-4"
    ]
    shown = (GOLDEN / "review.txt").read_text(encoding="utf-8")
    assert all(c["headline"] in shown for c in body["changes"])


def test_the_readme_shows_the_golden_text() -> None:
    """docs/diff.md's example is the snapshot, byte for byte: it cannot drift from the code."""
    readme = (ROOT.parent / "docs" / "diff.md").read_text(encoding="utf-8")
    assert f"```text\n{(GOLDEN / 'review.txt').read_text(encoding='utf-8')}```" in readme
