"""Issue 32: the diff's headlines carry the trees' names and values, and its markdown is posted as
the pull request's comment. A label value `x\n### merged, all good @org/admins` in a hand-edited
out/ started a heading of its own and mentioned a team; the text output printed the control
characters to the reviewer's terminal."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from taugen.commands.diff.markdown import markdown
from taugen.commands.diff.render import text
from taugen.engines.changes.engine import DiffOptions, diff

CASES = Path(__file__).resolve().parents[1] / "cases" / "diff"
HOSTILE = "ib-1\n### merged, all good @org/admins #12 !7\x1b[2J"


def _hostile_diff(tmp_path: Path) -> tuple[str, str]:
    shutil.copytree(CASES / "node-relabel" / "base", tmp_path / "base")
    shutil.copytree(CASES / "node-relabel" / "base", tmp_path / "head")
    nodes = tmp_path / "head" / "nodes" / "h200-141gb.yaml"
    docs = list(yaml.safe_load_all(nodes.read_text()))
    docs[0]["metadata"]["labels"]["tau.azure.com/network-domain"] = HOSTILE
    nodes.write_text(yaml.safe_dump_all(docs))
    result = diff(DiffOptions("base", "head", cwd=tmp_path))
    return markdown(result), text(result)


def test_a_value_starts_no_line_of_its_own(tmp_path: Path) -> None:
    comment, printed = _hostile_diff(tmp_path)
    for output in (comment, printed):
        assert "\x1b" not in output and not any(line.startswith("### merged") for line in output.splitlines())
    assert "ib-1\\n### merged" in printed  # the newline shown as its escape
    lines = [line for line in comment.splitlines() if "merged" in line]
    assert len(lines) == 2 and all(line.startswith("- ") for line in lines)  # the risk and the change


def test_a_value_mentions_no_one_and_references_nothing(tmp_path: Path) -> None:
    comment, _ = _hostile_diff(tmp_path)
    line = next(line for line in comment.splitlines() if "merged" in line)
    assert "@\u200borg/admins" in line and "\\#\u200b12" in line and "!\u200b7" in line
    assert "@org" not in comment and "#12" not in comment
