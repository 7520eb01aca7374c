"""Issue 36: a large inventory read and parsed while `taugen build` imports its modules
(context/early.py over load/native.start). The command hands what it started to the build, whose
loader takes that work only for the very text it reads, so the tree, the lock and every problem
are those of a build without it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import taugen.core.forked
from benchmarks.generate import generate
from taugen.context import early
from taugen.core.errors import InputError
from taugen.core.forked import started
from taugen.load import native
from taugen.write.journal import read_files
from tests.conftest import Run
from tests.support.unit import run_build

NODES = 15_000  # an inventory of about 4.5 MB: past native.BESIDE_FROM


@pytest.fixture
def fleets(tmp_path: Path) -> tuple[Path, Path]:
    """The same fleet twice, each its own project: one built as always, one with an early start."""
    (one,) = generate(tmp_path / "one", NODES, forms=["native"]).values()
    (two,) = generate(tmp_path / "two", NODES, forms=["native"]).values()
    assert (two.project.parent / "inventory.yaml").stat().st_size > native.BESIDE_FROM
    return one.project, two.project


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """For each load of a large text, whether an early start's work was taken."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)
    seen: list[bool] = []
    took: list[bool] = []
    real_take, real_cleared = native.Early.take, native._cleared

    def take(self: native.Early) -> Any:
        found = real_take(self)
        took.append(found is not native._NOT_STARTED)
        return found

    def cleared(text: str, timestamps: bool, started: native.Early | None) -> Any:
        took.clear()
        found = real_cleared(text, timestamps, started)
        if len(text) >= native.BESIDE_FROM:
            seen.append(any(took))
        return found

    monkeypatch.setattr(native.Early, "take", take)
    monkeypatch.setattr(native, "_cleared", cleared)
    yield seen


def _tree(project: Path) -> tuple[dict[str, bytes], bytes]:
    return read_files(project.parent / "out"), (project.parent / "taugen.lock").read_bytes()


def _built_early(project: Path) -> Any:
    with early.started(project, check=False) as started_early:
        return run_build(project, early=started_early)


def test_an_early_start_builds_the_tree_a_build_without_it_builds(
    fleets: tuple[Path, Path], taken: list[bool]
) -> None:
    one, two = fleets
    run_build(one)
    assert taken == [False]
    _built_early(two)
    assert taken == [False, True]
    assert _tree(two) == _tree(one)
    with pytest.raises(ChildProcessError):  # every child reaped
        os.waitpid(-1, os.WNOHANG)


def test_an_inventory_changed_after_the_start_is_read_as_it_is_now(
    fleets: tuple[Path, Path], taken: list[bool]
) -> None:
    one, two = fleets
    run_build(one)
    with early.started(two, check=True) as started_early:
        assert started_early is not None
        shutil.copy(one.parent / "inventory.yaml", two.parent / "inventory.yaml")
        with (two.parent / "inventory.yaml").open("a") as file:
            file.write("# changed after the start\n")
        run_build(two, early=started_early)
    assert taken == [False, False]  # not the text read at the start
    assert _tree(two) == _tree(one)


def test_too_deep_an_inventory_is_refused_as_without_an_early_start(
    fleets: tuple[Path, Path], taken: list[bool]
) -> None:
    """Flow nesting past the limit: the child's bound says so, and check_text's scan refuses it
    with the same problem; block nesting past it is not even parsed early."""
    one, two = fleets
    deep = "  - name: deep\n    labels: {a: " + "[" * 70 + "]" * 70 + "}\n"
    refusals = []
    for project in (one, two):
        with (project.parent / "inventory.yaml").open("a") as file:
            file.write(deep)
        with pytest.raises(InputError) as refused:
            (_built_early if project == two else run_build)(project)
        refusals.append(
            [(p.path.name, p.line, p.col, p.rule, p.message, p.hint) for p in refused.value.problems]
        )
    assert refusals[0] == refusals[1]
    assert refusals[0][0][4] == "nesting deeper than 64 levels" and refusals[0][0][1] > NODES
    with early.started(two, check=True) as started_early:
        assert started_early is not None and not started_early.depth_cleared()
    indented = "x:\n" + "".join(" " * i + "- \n" for i in range(70))
    assert native.start("#" * native.BESIDE_FROM + "\n" + indented) is None
    assert native.start(" " * 70 + "- x\n" + "#" * native.BESIDE_FROM + "\n") is None  # left to the loader


@pytest.mark.parametrize(
    "project",
    [
        "clusters: *nodes\n",  # an alias
        "clusters: [{inventory: ../outside.yaml}]\n",  # outside the project
        "clusters: [{inventory: missing.yaml}]\n",
        "clusters: " + "[" * 100 + "]" * 100 + "\n",  # too deep for the loader
        "clusters: [{inventory: fifo}]\n",  # not a regular file
        "\xff",  # not UTF-8 (written as bytes below)
    ],
)
def test_a_project_early_start_cannot_read_simply_starts_nothing(tmp_path: Path, project: str) -> None:
    (tmp_path / "outside.yaml").write_text("x: 1\n" * native.BESIDE_FROM)
    folder = tmp_path / "project"
    folder.mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "taugen.yaml").write_bytes(project.encode("latin-1"))
    assert early.start(folder / "taugen.yaml", check=True) is None


def test_a_project_file_that_is_a_fifo_is_not_waited_on(tmp_path: Path, run: Run) -> None:
    """Issue 17: nothing waits for a writer; the loader reports the project file as before."""
    os.mkfifo(tmp_path / "taugen.yaml")
    assert early.start(tmp_path / "taugen.yaml", check=True) is None
    result = run("build", "-c", tmp_path / "taugen.yaml", "--check")
    assert result.exit_code == 2 and "not a regular file" in result.output


def test_a_build_of_one_cluster_starts_only_its_inventory(fleets: tuple[Path, Path]) -> None:
    _, two = fleets
    assert early.start(two, check=True, cluster="another") is None
    with early.started(two, check=True, cluster="bench") as started_early:
        assert started_early is not None


def test_a_small_inventory_starts_nothing(tmp_path: Path) -> None:
    (tmp_path / "small.yaml").write_text("nodes: []\n")
    (tmp_path / "taugen.yaml").write_text("clusters: [{inventory: small.yaml}]\n")
    assert early.start(tmp_path / "taugen.yaml", check=True) is None


def test_a_started_child_gives_its_result_once_or_is_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)
    child = started(lambda: (os.getpid(), "done"))
    assert child is not None
    pid, said = child.result() or (0, "")
    assert said == "done" and pid not in (0, os.getpid())
    assert child.result() == (pid, "done")  # asked again: the same, the child long reaped
    waiting = started(lambda: __import__("time").sleep(60))
    assert waiting is not None
    waiting.end()  # killed and reaped at once
    assert waiting.result() is None
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_taugen_build_starts_early_and_lets_go_of_what_it_started(
    fleets: tuple[Path, Path], taken: list[bool], run: Run
) -> None:
    """Through the CLI: the command starts the inventory's parse before it imports the build, and
    leaves no child and no early start behind, whatever the build did."""
    one, two = fleets
    run_build(one)
    assert run("build", "-c", two).exit_code == 0
    assert taken == [False, True]
    assert _tree(two) == _tree(one)
    (two.parent / "taugen.lock").write_text("not: [a lock\n")  # the check fails after the start
    assert run("build", "-c", two, "--check").exit_code == 2
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_no_early_start_when_the_no_op_cache_may_answer(fleets: tuple[Path, Path], taken: list[bool]) -> None:
    """R33: a build of a project with a cache entry may be a no-op; `--check` never is (R34)."""
    _, two = fleets
    with early.started(two, check=False) as started_early:
        assert started_early is not None  # no entry yet
    run_build(two)
    assert early.start(two, check=False) is None
    with early.started(two, check=True) as started_early:
        assert started_early is not None


def test_what_was_started_is_taken_once_and_let_go_however_the_build_ends(
    fleets: tuple[Path, Path], taken: list[bool]
) -> None:
    """A second load of the same text reads it as always; a build that fails still ends the
    child the early start forked."""
    one, two = fleets
    run_build(one)
    with early.started(two, check=True) as started_early:
        assert started_early is not None
        run_build(two, early=started_early)
        assert run_build(two, early=started_early, check=True).differences == ()
    assert taken == [False, True, False]
    assert _tree(two) == _tree(one)
    with pytest.raises(InputError), early.started(two, check=True) as started_early:
        assert started_early is not None
        (two.parent / "taugen.lock").write_text("not: [a lock\n")
        run_build(two, early=started_early)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
