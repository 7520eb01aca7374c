"""The write journal of taugen/write/journal.py, in-process (the kill harness runs it for real).

A crash is imitated by an exception raised at a named point after the commit: nothing below
the point runs, as with SIGKILL. (Before the commit an exception is cleaned up at once, which
a kill is not: tests/crash/test_kill.py covers that window.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.core.errors import InputError
from taugen.write import journal as tree

OLD = {"c1": {"a.yaml": b"old c1\n"}, "c2": {"a.yaml": b"old c2\n"}}
NEW = {"c1": {"a.yaml": b"new c1\n", "b.yaml": b"added\n"}, "c2": {"a.yaml": b"new c2\n"}}


class Crash(BaseException):
    pass


def _crash_at(monkeypatch: pytest.MonkeyPatch, point: str) -> None:
    passed: list[str] = []

    def crash_point(name: str) -> None:
        passed.append(name)
        if f"{name}:{passed.count(name)}" == point:
            raise Crash(point)

    monkeypatch.setattr(tree, "crash_point", crash_point)


def _state(root: Path, lock: Path) -> tuple[dict[str, bytes], bytes]:
    return tree.read_files(root), lock.read_bytes()


def _written(tmp_path: Path) -> tuple[Path, Path]:
    root, lock = tmp_path / "out", tmp_path / "taugen.lock"
    tree.write_tree(root, OLD, lock=(lock, b"old lock\n"))
    return root, lock


def _expected(clusters: dict[str, dict[str, bytes]]) -> dict[str, bytes]:
    return {f"{name}/{rel}": data for name, files in clusters.items() for rel, data in files.items()}


@pytest.mark.parametrize("point", ["committed:1", "swapped:1", "swapped:2", "renamed:1"])
def test_a_crash_after_the_commit_is_rolled_forward(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, point: str
) -> None:
    """Between the two clusters' renames included: the next run finishes the swap and the lock."""
    root, lock = _written(tmp_path)
    _crash_at(monkeypatch, point)
    with pytest.raises(Crash):
        tree.write_tree(root, NEW, lock=(lock, b"new lock\n"))
    tree.recover(root, lock)
    assert _state(root, lock) == (_expected(NEW), b"new lock\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "taugen.lock"]


def test_a_dropped_cluster_is_dropped_on_recovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, lock = _written(tmp_path)
    _crash_at(monkeypatch, "committed:1")
    with pytest.raises(Crash):
        tree.write_tree(root, {"c1": NEW["c1"]}, drop=("c2",), lock=(lock, b"new lock\n"))
    tree.recover(root, lock)
    assert _state(root, lock) == (_expected({"c1": NEW["c1"]}), b"new lock\n")


def test_recovery_without_a_journal_deletes_the_staged_lock(tmp_path: Path) -> None:
    """A build that died before its commit: the old tree and lock, and no temporary file."""
    root, lock = _written(tmp_path)
    staging = tree.staging_dir(root)
    (staging / "c1").mkdir(parents=True)
    temporary = tmp_path / ".taugen.lock.taugen-tmp"
    temporary.write_bytes(b"new lock\n")
    tree.recover(root, lock)
    assert _state(root, lock) == (_expected(OLD), b"old lock\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "taugen.lock"]


def test_a_staging_path_that_is_a_link_is_refused_not_followed(tmp_path: Path) -> None:
    root, lock = _written(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("keep\n")
    tree.staging_dir(root).symlink_to(elsewhere)
    with pytest.raises(InputError) as info:
        tree.write_tree(root, NEW, lock=(lock, b"new lock\n"))
    assert [p.rule for p in info.value.problems] == ["output"]
    assert (elsewhere / "precious.txt").read_text() == "keep\n"
    assert _state(root, lock) == (_expected(OLD), b"old lock\n")
