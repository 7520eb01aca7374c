"""The diff case corpus: tests/cases/diff/<case>/{base,head}/ and the exact headlines and risk
classes in its expected.yaml. One generated test per folder; a folder without expected.yaml fails."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.diff.render import prefixed
from taugen.engines.changes.engine import DiffOptions, DiffResult, diff
from taugen.engines.changes.risks import IDS

CASES = Path(__file__).resolve().parents[1] / "cases" / "diff"
FOLDERS = sorted(p for p in CASES.iterdir() if p.is_dir())


def expected(case: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((case / "expected.yaml").read_text(encoding="utf-8"))
    return loaded


def run(case: Path, base: str = "base", head: str = "head") -> DiffResult:
    return diff(DiffOptions(base, head, cwd=case))


def found(result: DiffResult) -> list[dict[str, Any]]:
    return [{"headline": prefixed(e), "risks": sorted({r.id for r in e.risks})} for e in result.entries]


@pytest.mark.parametrize("case", FOLDERS, ids=lambda p: p.name)
def test_case(case: Path) -> None:
    want = expected(case)
    result = run(case)
    assert asdict(result.plan()) == want["plan"]
    assert found(result) == [
        {"headline": c["headline"], "risks": sorted(c.get("risks", []))} for c in want["changes"]
    ]


@pytest.mark.parametrize("case", FOLDERS, ids=lambda p: p.name)
def test_swapping_sides_swaps_adds_and_removes(case: Path) -> None:
    forward, backward = run(case).plan(), run(case, "head", "base").plan()
    assert (backward.add, backward.change, backward.remove) == (forward.remove, forward.change, forward.add)


def test_the_corpus_covers_every_risk_class_and_both_no_change_cases() -> None:
    risks = {r for case in FOLDERS for c in expected(case)["changes"] for r in c.get("risks", [])}
    assert risks == set(IDS)
    quiet = {case.name for case in FOLDERS if not expected(case)["changes"]}
    assert {"moved-between-files", "reordered-without-meaning"} <= quiet
    assert len(FOLDERS) >= 20
