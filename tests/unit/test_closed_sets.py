"""Issue 18: closed sets are typed — a rule id or a severity outside them is a mypy error."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml
from mypy import api

from taugen.core.errors import RULES

REPO = Path(__file__).resolve().parents[2]


def _rules(data: Any) -> set[str]:
    if isinstance(data, dict):
        found = {data["rule"]} if isinstance(data.get("rule"), str) else set()
        return found.union(*(_rules(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_rules(v) for v in data))
    return set()


def test_every_rule_the_case_corpus_expects_is_a_rule() -> None:
    expected = sorted((REPO / "tests" / "cases").rglob("expected.yaml"))
    named = set().union(*(_rules(yaml.safe_load(p.read_text())) for p in expected))
    assert len(expected) > 100 and len(named) > 20
    assert named - RULES == set()


def test_mypy_refuses_a_misspelt_rule_and_severity(tmp_path: Path) -> None:
    source = tmp_path / "typo.py"
    source.write_text(
        textwrap.dedent(
            """
            from pathlib import Path
            from taugen.core.errors import Problem
            Problem(Path("a"), 1, 1, "yaml", "fine")
            Problem(Path("a"), 1, 1, "ymal", "a typo")
            Problem(Path("a"), 1, 1, "io", "a typo", "", "warn")
            """
        )
    )
    out, _, status = api.run(
        [str(source), "--strict", "--no-incremental", "--follow-imports=silent", "--python-version=3.11"]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1
    assert [line.split(":")[1] for line in errors] == ["5", "6"], out
