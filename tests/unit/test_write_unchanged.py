"""Issue 36 (§4): a build writes only the files whose bytes changed. Of a cluster folder with
one changed shard, that shard's file is the only one written; every other file is carried over
as a hard link (same inode, same mtime), and an unchanged folder or lock is not staged at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.write import journal

SHARDS = {f"nodes/h200-141gb.ib-{i:03d}/nodes.yaml": f"shard {i}\n".encode() for i in range(6)}
OLD = {"c1": {"kustomization.yaml": b"resources: []\n", **SHARDS}, "c2": {"a.yaml": b"c2\n"}}


def _writes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    written: list[Path] = []
    write_bytes = Path.write_bytes

    def counted(path: Path, data: bytes) -> int:
        written.append(path)
        return write_bytes(path, data)

    monkeypatch.setattr(Path, "write_bytes", counted)
    return written


def _inodes(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_one_changed_shard_is_the_only_file_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, lock = tmp_path / "out", tmp_path / "taugen.lock"
    journal.write_tree(root, OLD, lock=(lock, b"lock\n"))
    before = {name: _inodes(root / name) for name in OLD}
    changed = "nodes/h200-141gb.ib-003/nodes.yaml"
    new = {"c1": {**OLD["c1"], changed: b"shard 3, relabelled\n"}, "c2": dict(OLD["c2"])}
    written = _writes(monkeypatch)
    assert journal.write_tree(root, new, lock=(lock, b"lock\n")) == ["c1"]
    assert [p.relative_to(journal.staging_dir(root)).as_posix() for p in written] == [f"c1/{changed}"]
    after = {name: _inodes(root / name) for name in OLD}
    assert {k: v for k, v in after["c1"].items() if k != changed} == {
        k: v for k, v in before["c1"].items() if k != changed
    }
    assert after["c1"][changed] != before["c1"][changed]
    assert after["c2"] == before["c2"]
    assert journal.read_files(root / "c1") == new["c1"]


def test_an_unchanged_tree_and_lock_write_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, lock = tmp_path / "out", tmp_path / "taugen.lock"
    journal.write_tree(root, OLD, lock=(lock, b"lock\n"))
    before = {name: _inodes(root / name) for name in OLD}
    written = _writes(monkeypatch)
    assert journal.write_tree(root, OLD, lock=(lock, b"lock\n")) == []
    assert written == []
    assert {name: _inodes(root / name) for name in OLD} == before
