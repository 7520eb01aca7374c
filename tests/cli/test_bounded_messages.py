"""Issue 17 item 9: a message never echoes a whole value, nor a control character in one.

A vmSize is free text in the inventory and R4 names it. A newline in it must not start a
line of its own (`::set-output`, `::error::` are GitHub Actions workflow commands), and a
1 MB one must not become 1 MB of stderr.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.errors import Problem, bounded
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, write_project


def _r4_lines(tmp_path: Path, run: Run, vm_size: str) -> list[str]:
    project = write_project(tmp_path, inventory([gpu_node("h-0", vm_size=vm_size)]))
    result = run("build", "-c", project)
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "out").exists()
    return result.stderr.splitlines()


def test_a_newline_in_a_vm_size_cannot_start_a_workflow_command(tmp_path: Path, run: Run) -> None:
    lines = _r4_lines(tmp_path, run, "Standard_X\n::set-output name=gate::pass\r\x1b[2K")
    assert not [line for line in lines if line.startswith("::")], lines
    assert r"(vmSize Standard_X\n::set-output name=gate::pass\r\x1b[2K)" in lines[0], lines


def test_a_one_megabyte_vm_size_is_cut(tmp_path: Path, run: Run) -> None:
    lines = _r4_lines(tmp_path, run, "S" * 1_000_000)
    assert sum(len(line) for line in lines) < 2000, [line[:200] for line in lines]
    assert f"(vmSize {'S' * 80}… (1000001 characters)" in lines[0]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain message", "plain message"),
        ("a\nb\r\tc\x1b\x00\u2028d\x85", r"a\nb\r\tc\x1b\x00\u2028d\x85"),
        ("x" * 160, "x" * 160),
        ("v " + "x" * 161, f"v {'x' * 80}… (161 characters)"),
        ("y " * 1500, f"{('y ' * 1000)}… (3000 characters in all)"),
    ],
)
def test_bounded(text: str, shown: str) -> None:
    assert bounded(text) == shown


def test_every_problem_is_bounded_where_it_is_made() -> None:
    problem = Problem(Path("in\nv.yaml"), 1, 2, "R4", "node\n::error::x", "hint\n::warning::y")
    assert (problem.message, problem.hint) == (r"node\n::error::x", r"hint\n::warning::y")
    assert problem.render() == "in\\nv.yaml:1:2: error: node\\n::error::x [R4]\n  hint: hint\\n::warning::y"
