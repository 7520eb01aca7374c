"""Issue 33: one reader of committed trees, a folder or a Git revision; what is scheduler-specific
in one each scheduler says in its `files` (taugen/schedulers/registry.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taugen.context.committed import Committed, read_committed
from taugen.context.tree import CompiledTree
from taugen.core.errors import InputError
from taugen.schedulers.protocol import Files
from taugen.schedulers.registry import schedulers

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _commit(tmp_path: Path) -> Path:
    """The repository's committed eastus-prod and northeurope-kai trees, committed in a new repository."""
    for name in ("eastus-prod", "northeurope-kai"):
        shutil.copytree(REPO / "out" / name, tmp_path / "out" / name)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "trees"], check=True)
    return tmp_path


def test_every_scheduler_says_where_its_queues_are() -> None:
    assert {s.name: s.files for s in schedulers()} == {
        "kueue": Files(
            queues="clusterqueue.yaml", flavors="resourceflavors.yaml", also_quota=("cohort.yaml",)
        ),
        "kai": Files(queues="queues.yaml"),
    }


def test_a_revision_reads_as_the_folder_it_was_committed_from(tmp_path: Path) -> None:
    root = _commit(tmp_path)
    on_disk = CompiledTree.read(root / "out" / "eastus-prod")
    files = read_committed(Committed("HEAD", Path("out")), root)
    assert files.label == "git:HEAD:out"
    sub = files.under("eastus-prod")
    assert sub is not None and sub.label == "git:HEAD:out/eastus-prod"
    at_head = CompiledTree.of(sub)
    assert at_head.folder == Path("git:HEAD:out/eastus-prod")
    assert at_head.kueue("taugrid") == on_disk.kueue("taugrid")
    assert at_head.node_labels() == on_disk.node_labels()
    assert at_head.advertises_slot() == on_disk.advertises_slot()
    assert at_head.catalog().body == on_disk.catalog().body
    assert files.under("no-such-cluster") is None


def test_a_kai_revision_reads_its_queues_as_the_folder_does(tmp_path: Path) -> None:
    root = _commit(tmp_path)
    sub = read_committed(Committed("HEAD", Path("out/northeurope-kai")), root)
    assert CompiledTree.of(sub).kai_queues() == CompiledTree.read(root / "out/northeurope-kai").kai_queues()


def test_a_file_missing_at_the_revision_means_the_cluster_is_not_built(tmp_path: Path) -> None:
    root = _commit(tmp_path)
    sub = read_committed(Committed("HEAD", Path("out/northeurope-kai")), root)
    with pytest.raises(InputError) as err:
        CompiledTree.of(sub).kueue("taugrid")
    (problem,) = err.value.problems
    assert (problem.path, problem.rule) == (Path("git:HEAD:out/northeurope-kai/resourceflavors.yaml"), "tree")
