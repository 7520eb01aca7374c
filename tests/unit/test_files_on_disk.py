"""write/journal.FilesOnDisk (issue 36): read_files' view of a folder, each file read when asked
for and not kept, for `build --check` and the build cache's digest of the written tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taugen.load.limits import MAX_BYTES
from taugen.write.journal import FilesOnDisk, read_files


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "out" / "c1"
    (root / "nodes" / "a").mkdir(parents=True)
    (root / "kustomization.yaml").write_bytes(b"resources: []\n")
    (root / "nodes" / "a" / "nodes.yaml").write_bytes(b"---\nkind: Node\n")
    (root / "nodes" / "b.yaml").symlink_to("a/nodes.yaml")  # a link: a marker, never followed
    (root / "linked").symlink_to(root / "nodes")
    os.mkfifo(root / "pipe")  # not a file: a marker, never opened
    with (root / "large.yaml").open("wb") as large:
        large.truncate(MAX_BYTES + 1)
    return root


def test_the_view_holds_what_read_files_reads(folder: Path) -> None:
    view = FilesOnDisk(folder)
    assert dict(view) == read_files(folder)
    assert list(view) == list(read_files(folder)) == sorted(read_files(folder))
    assert len(view) == 6 and "linked" in view and "nodes/a/nodes.yaml" in view
    assert view["nodes/a/nodes.yaml"] == b"---\nkind: Node\n"
    assert view["nodes/b.yaml"] != view["nodes/a/nodes.yaml"]


def test_a_file_is_read_when_asked_for_not_kept(folder: Path) -> None:
    view = FilesOnDisk(folder)
    (folder / "kustomization.yaml").write_bytes(b"resources: [nodes]\n")
    assert view["kustomization.yaml"] == b"resources: [nodes]\n"


def test_a_missing_folder_or_a_link_to_one_holds_nothing(folder: Path) -> None:
    assert dict(FilesOnDisk(folder.parent / "c2")) == {} == read_files(folder.parent / "c2")
    (folder.parent / "c3").symlink_to(folder)
    assert dict(FilesOnDisk(folder.parent / "c3")) == {}
    with pytest.raises(KeyError):
        FilesOnDisk(folder)["absent.yaml"]
