"""Issue 21: every rule id taugen prints (`[R26]`, `[yaml]`) or cites in help resolves to a
paragraph of docs/rules.md, in the project's own words."""

from __future__ import annotations

import re
from typing import get_args

from click.testing import CliRunner

from taugen.cli import main
from taugen.core.errors import Rule
from tests.conftest import REPO

REFERENCE = REPO / "docs" / "rules.md"


def _headings() -> dict[str, str]:
    sections = re.split(r"^### ", REFERENCE.read_text(), flags=re.M)[1:]
    return {s.split("\n", 1)[0].strip(): s.split("\n", 1)[1].strip() for s in sections}


def test_every_rule_id_has_a_paragraph() -> None:
    headings = _headings()
    missing = [rule for rule in get_args(Rule) if not headings.get(rule)]
    assert missing == []
    assert set(headings) == set(get_args(Rule))  # and nothing there that taugen never prints


def test_every_rule_id_a_help_text_cites_is_there() -> None:
    runner = CliRunner()
    commands = [[], *([name] for name in main.commands)]
    texts = [runner.invoke(main, [*c, "--help"]).output for c in commands]
    cited = {m for t in texts for m in re.findall(r"\b(R\d+|K\d|S\d|§\d+)\b", t)}
    assert cited and cited <= set(_headings())
