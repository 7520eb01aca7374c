"""Issue 34 (8): Git's conflict markers left in an input YAML file are named as what they are,
at the first marker's line, with how to go on; not as the syntax error they cause."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, write_project

HINT = (
    "hint: resolve it, then run taugen again: keep the side you want (or both) "
    "and delete the `<<<<<<<`, `=======` and `>>>>>>>` lines"
)


def conflicted(path: Path, after: str, ours: str, theirs: str, base: str | None = None) -> int:
    """Replace the line `after` of path by a conflict between ours and theirs (diff3 style with
    a base); returns the line number of `<<<<<<<`."""
    lines = path.read_text().splitlines()
    at = lines.index(after)
    middle = ["||||||| base", base] if base is not None else []
    lines[at : at + 1] = ["<<<<<<< HEAD", ours, *middle, "=======", theirs, ">>>>>>> tenant-b"]
    path.write_text("\n".join(lines) + "\n")
    return at + 1


@pytest.mark.parametrize("base", [None, "- name: h200-1"])
def test_a_conflict_in_the_inventory_is_named_at_its_line(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, base: str | None
) -> None:
    monkeypatch.chdir(tmp_path)
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1")]))
    path = tmp_path / "inventory.yaml"
    line = conflicted(path, "- name: h200-1", "- name: h200-2", "- name: h200-3", base)
    result = run("build", "-c", project)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[:2] == [
        f"inventory.yaml:{line}:1: error: unresolved Git merge conflict "
        "(a `<<<<<<<` line Git left in the file) [yaml]",
        "  " + HINT,
    ]


def test_a_conflict_in_the_project_file_is_named_at_its_line(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, tenants=("team-a",))
    line = conflicted(project, "  - namespace: team-a", "  - namespace: team-a", "  - namespace: team-b")
    result = run("validate", "-c", project)
    assert result.exit_code == 2, result.output
    assert f"taugen.yaml:{line}:1: error: unresolved Git merge conflict" in result.output
    assert HINT in result.output


def test_a_line_without_its_colon_still_says_so(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path)
    path = tmp_path / "inventory.yaml"
    path.write_text(path.read_text().replace("kind: ClusterInventory", "kind: ClusterInventory\nobservedAt"))
    result = run("build", "-c", project)
    assert result.exit_code == 2, result.output
    assert "merge conflict" not in result.output
    assert "hint: add the `:`" in result.output
