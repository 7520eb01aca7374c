"""Issue 17 item 9: a message never echoes a whole value, nor a control character in one.

A vmSize is free text in the inventory and R4 names it. A newline in it must not start a
line of its own (`::set-output`, `::error::` are GitHub Actions workflow commands), and a
1 MB one must not become 1 MB of stderr.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taugen.commands import validate as validate_command
from taugen.core.errors import FoundProblems, Problem, bounded
from tests.conftest import REPO, Run
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


HOSTILE = "\n::error::x"


def _no_command_lines(output: str) -> None:
    assert not [line for line in output.splitlines() if line.startswith("::")], output


def test_an_error_that_is_no_problem_is_one_bounded_line(run: Run) -> None:
    """A TaugenError's message (here a flag's value) is printed through bounded()."""
    result = run("validate", "--kubernetes-version", f"1.33{HOSTILE}", REPO / "out")
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(
        r"error: --kubernetes-version 1.33\n::error::x: no schemas for it; known: 1.25, "
    ), line


def test_check_names_a_hostile_trees_object_on_one_line(tmp_path: Path, run: Run) -> None:
    """`build --check` lists the objects of out/, which the pull request wrote."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    assert run("build", "-c", project).exit_code == 0
    nodes = tmp_path / "out" / "c1" / "nodes" / "h200-141gb" / "nodes.yaml"
    nodes.write_text(nodes.read_text().replace("  name: h-0\n", '  name: "h-0\\n::error::x"\n'))
    result = run("build", "-c", project, "--check")
    assert result.exit_code == 1, result.output
    _no_command_lines(result.output)
    assert result.stdout.splitlines() == [
        r"out/c1/nodes/h200-141gb/nodes.yaml: Node/h-0\n::error::x not produced by taugen",
        "out/c1/nodes/h200-141gb/nodes.yaml: Node/h-0 missing",
    ]


def test_validate_names_a_hostile_trees_object_on_one_line(tmp_path: Path, run: Run) -> None:
    """The validate report's Kind/name and FoundProblems' lines come from the tree."""
    tree = tmp_path / "eastus-prod"
    shutil.copytree(REPO / "out" / "eastus-prod", tree)
    queue = tree / "clusterqueue.yaml"
    queue.write_text(queue.read_text().replace("  name: taugrid\n", '  name: "taugrid\\n::error::x"\n', 1))
    result = run("validate", tree)
    assert result.exit_code == 1, result.output
    _no_command_lines(result.output)
    assert result.stdout.splitlines()[0].startswith(
        rf"{queue}:6:9: error: ClusterQueue/taugrid\n::error::x: "
        r"metadata.name: 'taugrid\n::error::x' does not match"
    )


def test_found_problems_lines_are_bounded(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """FoundProblems (exit 1) prints lines a command made from values: each one line, bounded."""

    def found(options: object) -> None:
        raise FoundProblems(f"summary{HOSTILE}", [f"line{HOSTILE}", "x" * 5000])

    monkeypatch.setattr(validate_command, "validate_paths", found)  # the CLI imports it when it runs
    result = run("validate", REPO / "out")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        r"line\n::error::x",
        f"{'x' * 80}… (5000 characters)",
        r"error: summary\n::error::x",
    ]
