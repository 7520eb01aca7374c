"""Issue 36: a large cluster's node-label files built by two processes (emit/split.py over
core/forked.py) are the files one process builds, byte for byte; and whatever the child cannot
do, one process does, with the same result or the same error."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import taugen.commands.build
import taugen.core.forked
import taugen.emit.split
import taugen.validate.gate
from benchmarks.generate import generate
from taugen.compile.nodelabels.shards import ShardError
from taugen.core.errors import FoundProblems
from taugen.core.forked import in_two
from taugen.emit.split import NodeFiles
from taugen.validate.built_nodes import NodeSummary, summarized
from taugen.write.journal import read_files
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

NET = "net.unbounded-cloud.io/network-domain"
Given = NodeFiles[NodeSummary] | None  # what split_node_files gave


@pytest.fixture
def two(monkeypatch: pytest.MonkeyPatch) -> list[Given]:
    """Every cluster takes the two-process path, on any machine with a fork (a one-core CI box
    too: the result is the same, only not sooner); what split_node_files gave, in order."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork here: the one-process path is all there is")
    monkeypatch.setattr(taugen.emit.split, "SPLIT_FROM", 0)
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)
    given: list[Given] = []
    split = taugen.emit.split.split_node_files

    def spy(*args: Any) -> Given:
        given.append(split(*args))
        return given[-1]

    monkeypatch.setattr("taugen.commands.build.split_node_files", spy)
    return given


def _tree(project: Path) -> tuple[dict[str, bytes], bytes]:
    return read_files(project.parent / "out"), (project.parent / "taugen.lock").read_bytes()


def test_two_processes_build_the_tree_one_builds(tmp_path: Path, two: list[Given]) -> None:
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
    # the child's objects stayed there: its files' bytes came back with their Nodes' summary
    assert files.kept is not None and files.kept.summary.count > 1_000
    assert files.kept.names and set(files.kept.names) <= set(files.texts) - set(files.objects)
    assert _tree(both.project) == _tree(one.project)
    assert run_build(both.project, check=True).differences == ()  # --check: the same tree
    assert len(two) == 2 and two[1] == files


def test_groups_of_both_halves_that_share_a_folder_are_refused_as_by_one_process(
    tmp_path: Path, two: list[Given]
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


def _spied_objects(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[Any], None] = lambda _: None
) -> list[int]:
    """The pid of each call of split._objects made in this process (the child's calls stay in
    the child); `change` alters each built object, here and in the child alike."""
    calls: list[int] = []
    built = taugen.emit.split._objects

    def spy(*args: Any) -> Any:
        calls.append(os.getpid())
        objects = built(*args)
        for docs in objects.values():
            for obj in docs:
                change(obj)
        return objects

    monkeypatch.setattr(taugen.emit.split, "_objects", spy)
    return calls


def test_the_gate_builds_the_childs_objects_here_to_check_them_one_by_one(
    tmp_path: Path, two: list[Given], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the bulk check cannot vouch for the Nodes (a CRD of Node's, a file too large), the
    gate validates every object: both halves, summarized in place of their objects, are built
    here again, the same."""
    (one,) = generate(tmp_path / "one", 3_000, forms=["native"]).values()
    (both,) = generate(tmp_path / "two", 3_000, forms=["native"]).values()
    run_build(one.project)
    calls = _spied_objects(monkeypatch)
    run_build(both.project)
    assert calls == [os.getpid()]  # this half only: the child's were summarized, not rebuilt
    shutil.rmtree(both.project.parent / "out")
    (both.project.parent / "taugen.lock").unlink()
    calls.clear()
    monkeypatch.setattr(taugen.validate.gate, "clean", lambda *_: None)
    run_build(both.project)
    assert calls == [os.getpid()] * 3  # this half, then both again for the gate (neither was kept)
    assert _tree(both.project) == _tree(one.project)


def test_nodes_the_child_kept_are_refused_as_if_it_had_sent_them(
    tmp_path: Path, two: list[Given], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong label on the child's Nodes: the gate's lines are those it gives when the child
    sends its objects (the path before summaries), and nothing is written."""
    (fleet,) = generate(tmp_path, 3_000, forms=["native"]).values()

    def wrong(obj: Any) -> None:
        obj["metadata"]["labels"]["tau.azure.com/site"] = "not a label value!"

    _spied_objects(monkeypatch, wrong)
    refusals = []
    for summarize in (summarized, lambda *_: None):
        monkeypatch.setattr(taugen.commands.build, "summarized", summarize)
        with pytest.raises(FoundProblems) as refused:
            run_build(fleet.project)
        refusals.append(refused.value.lines)
    assert two[0] is not None and two[0].kept is not None and two[1] is not None and two[1].kept is None
    assert refusals[0] == refusals[1] and len(refusals[0]) > 1
    assert not (fleet.project.parent / "out").exists()


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


def test_a_result_larger_than_the_pipe_comes_whole_or_not_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child pickles into the pipe as the parent unpickles from it (issue 36: the result was
    held whole in each process first): 4 MB, far past a pipe's 64 KiB, comes back as it was; a
    result the child fails to pickle after the first megabytes gives none, as a failed child."""
    _forking(monkeypatch)
    large = [bytes([i]) * 1_000_000 for i in range(4)]
    assert in_two(lambda part: [*large, part], 1, 2) == ([*large, 1], [*large, 2])
    assert in_two(lambda part: [*large, lambda: part], 1, 2) is None


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


def test_a_child_that_cannot_summarize_sends_its_objects_and_this_half_is_built_again(
    tmp_path: Path, two: list[Given], monkeypatch: pytest.MonkeyPatch
) -> None:
    """This process let its objects go for its summary; the child, with none, sent its objects:
    the gate then gets every file's objects, this half's built here again, and the same tree."""
    (one,) = generate(tmp_path / "one", 3_000, forms=["native"]).values()
    (both,) = generate(tmp_path / "two", 3_000, forms=["native"]).values()
    with pytest.MonkeyPatch.context() as serial:
        serial.setattr(taugen.emit.split, "SPLIT_FROM", 10**9)
        run_build(one.project)
    two.clear()
    parent = os.getpid()

    def here_only(objects: Any, texts: Any) -> NodeSummary | None:
        return summarized(objects, texts) if os.getpid() == parent else None

    monkeypatch.setattr(taugen.commands.build, "summarized", here_only)
    calls = _spied_objects(monkeypatch)
    run_build(both.project)
    (files,) = two
    assert files is not None and files.kept is None and files.objects.keys() == files.texts.keys()
    assert calls == [parent] * 2  # this half, then again for its objects
    assert _tree(both.project) == _tree(one.project)
