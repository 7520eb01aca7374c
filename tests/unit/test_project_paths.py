"""A path in taugen.yaml with a control character (a NUL byte) is refused at its position, never a
crash in the file system's calls (found by tests/property/test_fuzz_inputs.py); nor (issue 32) a
newline, a tab or a bidi override, which a reviewer cannot see."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.load.project import load_project
from tests.support.unit import problems_of

HEAD = "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\n"
CLUSTER = "clusters:\n  - name: c1\n    inventory: {inventory}\n    tenants: [{{namespace: team-a}}]\n"


@pytest.mark.parametrize(
    ("body", "line", "col", "field"),
    [
        (CLUSTER.format(inventory='"inv\\a.yaml"'), 5, 16, "clusters.0.inventory"),
        ('output: "out\\x1b[2J"\n' + CLUSTER.format(inventory="inv.yaml"), 3, 9, "output"),
        ('crds: ["k\\x7f"]\n' + CLUSTER.format(inventory="inv.yaml"), 3, 8, "crds.0"),
        # issue 32: a newline, a tab or a bidi override (which shows `out` for `tuo`) in `output:`
        ('output: "out\\nx"\n' + CLUSTER.format(inventory="inv.yaml"), 3, 9, "output"),
        ('output: "out\\tx"\n' + CLUSTER.format(inventory="inv.yaml"), 3, 9, "output"),
        ('output: "\\u202eout"\n' + CLUSTER.format(inventory="inv.yaml"), 3, 9, "output"),
    ],
)
def test_a_control_character_in_a_path_is_refused_at_it(
    tmp_path: Path, body: str, line: int, col: int, field: str
) -> None:
    project = tmp_path / "taugen.yaml"
    project.write_text(HEAD + body)
    (problem,) = problems_of(lambda: load_project(project))
    assert (problem.line, problem.col, problem.rule) == (line, col, "project")
    assert problem.message.startswith(f"{field}: ") and "holds the control character" in problem.message
    assert problem.hint == "write the path as plain text, relative to taugen.yaml"
