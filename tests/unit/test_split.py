"""Issue 36: a large cluster's node-label files built by two processes (emit/split.py over
core/forked.py) are the files one process builds, byte for byte; and whatever the child cannot
do, one process does, with the same result or the same error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import taugen.core.forked
import taugen.emit.split
from benchmarks.generate import generate
from taugen.compile.nodelabels.shards import ShardError
from taugen.core.forked import in_two
from taugen.emit.split import NodeFiles
from taugen.write.journal import read_files
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

NET = "net.unbounded-cloud.io/network-domain"


@pytest.fixture
def two(monkeypatch: pytest.MonkeyPatch) -> list[NodeFiles | None]:
    """Every cluster takes the two-process path, on any machine with a fork (a one-core CI box
    too: the result is the same, only not sooner); what split_node_files gave, in order."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork here: the one-process path is all there is")
    monkeypatch.setattr(taugen.emit.split, "SPLIT_FROM", 0)
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)
    given: list[NodeFiles | None] = []
    split = taugen.emit.split.split_node_files

    def spy(*args: Any) -> NodeFiles | None:
        given.append(split(*args))
        return given[-1]

    monkeypatch.setattr("taugen.commands.build.split_node_files", spy)
    return given


def _tree(project: Path) -> tuple[dict[str, bytes], bytes]:
    return read_files(project.parent / "out"), (project.parent / "taugen.lock").read_bytes()


def test_two_processes_build_the_tree_one_builds(tmp_path: Path, two: list[NodeFiles | None]) -> None:
    (one,) = generate(tmp_path / "one", 3_000, forms=["native"]).values()
    (both,) = generate(tmp_path / "two", 3_000, forms=["native"]).values()
    with pytest.MonkeyPatch.context() as serial:
        serial.setattr(taugen.emit.split, "SPLIT_FROM", 10**9)
        run_build(one.project)
    assert two == [None]  # one process
    two.clear()
    run_build(both.project)
    (files,) = two
    assert files is not None and len(files.texts) > 10  # taken, with many groups in each half
    assert _tree(both.project) == _tree(one.project)
    assert run_build(both.project, check=True).differences == ()  # --check: the same tree
    assert len(two) == 2 and two[1] == files


def test_groups_of_both_halves_that_share_a_folder_are_refused_as_by_one_process(
    tmp_path: Path, two: list[NodeFiles | None]
) -> None:
    """ib-a's three Nodes split into parts (shardSize 2), one folder named like ib-a.part-1-of-2's
    group: the halves each build, the join sees the shared folder and one process says why."""
    nodes = [gpu_node(f"h200-{i}", labels={NET: "ib-a"}) for i in range(3)]
    nodes.append(gpu_node("h200-x", labels={NET: "ib-a.part-1-of-2"}))
    project = write_project(tmp_path, inventory(nodes), shardSize=2)
    with pytest.raises(ShardError) as refused:
        run_build(project)
    assert two == [None]
    assert str(refused.value) == (
        "node-label groups nodes/h200-141gb/ib-a.part-1-of-2.yaml and nodes/h200-141gb/ib-a.yaml would "
        "share the shard folder nodes/h200-141gb.ib-a.part-1-of-2: rename one network domain"
    )
    assert not (tmp_path / "out").exists()


def _forking(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)


def test_both_halves_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)
    mine, child = in_two(lambda part: (os.getpid(), sorted(part)), {3, 1}, {2}) or ((0, []), (0, []))
    assert mine == (os.getpid(), [1, 3])
    assert child[1] == [2] and child[0] not in (0, os.getpid())  # built by another process


def test_a_child_that_fails_gives_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)
    parent = os.getpid()

    def work(part: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child's half")
        return part

    assert in_two(work, 1, 2) is None
    assert in_two(lambda part: lambda: part, 1, 2) is None  # a result that cannot be pickled


def test_an_error_here_is_raised_and_the_child_is_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)
    parent = os.getpid()

    def work(part: float) -> float:
        if os.getpid() == parent:
            raise ZeroDivisionError("here")
        return part

    with pytest.raises(ZeroDivisionError):
        in_two(work, 1.0, 2.0)
    with pytest.raises(ChildProcessError):  # reaped: no child is left
        os.waitpid(-1, os.WNOHANG)


def test_without_a_fork_nothing_is_split(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: False)
    calls: list[int] = []

    def work(part: int) -> int:
        calls.append(part)
        return part

    assert in_two(work, 1, 2) is None and calls == []
