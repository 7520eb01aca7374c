"""Issue 17 item 9: the one reader of compiled trees (load/compiled.py) — YAML 1.2, core tags only."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.core.errors import InputError
from taugen.load.compiled import tree_documents
from taugen.load.document import read_text


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a: !!timestamp 2026-11-29\n", "f.yaml:1:4: error: tag !!timestamp is not allowed"),
        ("a: !!set {x}\n", "f.yaml:1:4: error: tag !!set is not allowed"),
        ("a: *x\n", "f.yaml:1:4: error: found undefined alias 'x' [yaml]"),  # was a KeyError: exit 3
        (
            "%YAML 1.1\n---\na: yes\n",
            "f.yaml:1:1: error: not YAML as taugen writes it: a directive (%YAML, %TAG)",
        ),
        ("a: 1\na: 2\n", "f.yaml:2:1: error: found duplicate key"),
    ],
)
def test_the_tree_reader_refuses_what_taugen_never_writes(text: str, problem: str) -> None:
    with pytest.raises(InputError) as err:
        tree_documents(Path("f.yaml"), text)
    assert err.value.problems[0].render().startswith(problem), err.value.problems[0].render()


def test_the_tree_reader_uses_the_core_schema(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("a: y\nb: yes\nc: 2026-11-29\nd: 017\ne: 0o17\nf: 1e3\ng: ~\nh: true\ni: 1:20\n---\n")
    assert tree_documents(path, read_text(path)) == [
        {
            "a": "y",
            "b": "yes",
            "c": "2026-11-29",
            "d": 17,
            "e": 15,
            "f": 1000.0,
            "g": None,
            "h": True,
            "i": "1:20",
        }
    ]
