"""Issue 32: the project root stops at the repository's root and is never reached through a
symbolic link. Without -c the upward search for taugen.yaml walked past the repository into a
parent project (and built it); a taugen.yaml that was a link made the build write the link's
target's tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.cli import completion
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, snapshot
from tests.support.unit import write_project


def _parent_project(tmp_path: Path) -> Path:
    """A project in the folder that holds the repository: not the repository's."""
    return write_project(tmp_path, inventory([gpu_node("h-0")]))


def test_the_search_stops_at_the_repository_root(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _parent_project(tmp_path)
    repo = tmp_path / "checkout"
    (repo / ".git").mkdir(parents=True)
    (repo / "docs").mkdir()
    monkeypatch.chdir(repo / "docs")
    before = snapshot(tmp_path)
    result = run("build")
    assert result.exit_code == 2
    assert "no project file taugen.yaml" in result.stderr
    assert snapshot(tmp_path) == before
    assert completion.cluster_names(completion.find_project(None, repo / "docs")) == []


@pytest.mark.parametrize("git", ["folder", "worktree-file"])
def test_the_search_finds_the_repositorys_own_project(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, git: str
) -> None:
    repo = tmp_path / "checkout"
    project = write_project(repo, inventory([gpu_node("h-0")]))
    if git == "folder":
        (repo / ".git").mkdir()
    else:
        (repo / ".git").write_text("gitdir: /elsewhere/.git/worktrees/checkout\n")
    (repo / "docs" / "deep").mkdir(parents=True)
    monkeypatch.chdir(repo / "docs" / "deep")
    assert run("build").exit_code == 0
    assert (repo / "out" / "c1").is_dir()
    assert completion.find_project(None, repo / "docs" / "deep") == project


def test_a_linked_project_file_is_refused(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    victim = write_project(tmp_path / "victim", inventory([gpu_node("h-0")]))
    repo = tmp_path / "checkout"
    repo.mkdir()
    (repo / "taugen.yaml").symlink_to(victim)
    monkeypatch.chdir(repo)
    before = snapshot(tmp_path)
    for args in (("build",), ("build", "-c", repo / "taugen.yaml"), ("validate",)):
        result = run(*args)
        assert result.exit_code == 2, args
        assert f"{repo / 'taugen.yaml'} is a symbolic link (to {victim})" in result.stderr
    assert snapshot(tmp_path) == before


def test_a_project_reached_through_a_linked_folder_is_refused(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path / "victim", inventory([gpu_node("h-0")]))
    repo = tmp_path / "checkout"
    repo.mkdir()
    (repo / "deploy").symlink_to(tmp_path / "victim")
    monkeypatch.chdir(repo)
    before = snapshot(tmp_path)
    result = run("build", "-c", "deploy/taugen.yaml")
    assert result.exit_code == 2
    assert f"{repo / 'deploy'} is a symbolic link (to {tmp_path / 'victim'})" in result.stderr
    assert snapshot(tmp_path) == before
