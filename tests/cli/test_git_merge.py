"""Issue 16 failure 4, with real git: two pull requests from one base, merged.

Independent changes to one cluster (a tenant here, a node there) merge without a conflict,
and the merge is what a build of the merged inputs writes. Changes that do collide (two
nodes of one class) leave conflicts only in generated files; `taugen build` on the merged
inputs regenerates them, reading the conflicted lock as the maximum of both sides (R35).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.helpers import gpu_node, inventory, write_project, write_yaml

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=repo, env=env, check=check, capture_output=True, text=True)


def _taugen(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taugen", *args], cwd=repo, capture_output=True, text=True, check=False
    )


NODES = [gpu_node("h-0"), gpu_node("h-1", labels={"net.unbounded-cloud.io/network-domain": "ib-a"})]


def _base(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_project(repo, inventory(NODES), tenants=("team-a",))
    assert _taugen(repo, "build").returncode == 0
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    return repo


def _branch(repo: Path, name: str, change: object) -> None:
    _git(repo, "checkout", "-q", "-b", name, "main")
    assert callable(change)
    change()
    built = _taugen(repo, "build")
    assert built.returncode == 0, built.stderr
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", name)


def _add_tenant(repo: Path) -> None:
    project = yaml.safe_load((repo / "taugen.yaml").read_text())
    project["clusters"][0]["tenants"].append({"namespace": "team-b"})
    write_yaml(repo / "taugen.yaml", project)


def _add_node(repo: Path, name: str, domain: str | None = None, gpus: int = 8) -> None:
    data = yaml.safe_load((repo / "inventory.yaml").read_text())
    labels = {"net.unbounded-cloud.io/network-domain": domain} if domain else None
    data["nodes"].append(gpu_node(name, labels=labels, gpus=gpus))
    write_yaml(repo / "inventory.yaml", data)


def _tree(repo: Path) -> dict[str, bytes]:
    files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / "out").rglob("*") if p.is_file()}
    return files | {"taugen.lock": (repo / "taugen.lock").read_bytes()}


def test_a_tenant_and_a_node_merge_without_conflict_into_a_current_tree(tmp_path: Path) -> None:
    repo = _base(tmp_path)
    _branch(repo, "tenant", lambda: _add_tenant(repo))
    _branch(repo, "node", lambda: _add_node(repo, "h-2", "ib-a"))
    _git(repo, "checkout", "-q", "tenant")
    merged = _git(repo, "merge", "-q", "--no-edit", "node", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    check = _taugen(repo, "build", "--check")
    assert (check.returncode, check.stdout) == (0, "up to date\n"), check.stdout + check.stderr
    merged_tree = _tree(repo)
    fresh = tmp_path / "fresh"
    shutil.copytree(repo, fresh, ignore=shutil.ignore_patterns(".git", "out", "taugen.lock"))
    assert _taugen(fresh, "build").returncode == 0
    assert _tree(fresh) == merged_tree


def test_colliding_nodes_conflict_only_in_generated_files_that_a_build_regenerates(tmp_path: Path) -> None:
    repo = _base(tmp_path)
    _branch(repo, "one", lambda: _add_node(repo, "h-2"))
    _branch(repo, "two", lambda: _add_node(repo, "h-3", gpus=4))  # quota 20 here, 24 there
    _git(repo, "checkout", "-q", "one")
    merged = _git(repo, "merge", "--no-edit", "two", check=False)
    assert merged.returncode == 1
    conflicted = set(_git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split())
    assert "taugen.lock" in conflicted and "inventory.yaml" in conflicted
    generated = ("clusterqueue.yaml", "resourceflavors.yaml", "nodes/h200-141gb/nodes.yaml")
    assert conflicted <= {"inventory.yaml", "taugen.lock"} | {f"out/c1/{f}" for f in generated}
    # the person resolving the merge keeps both nodes in the input, and lets taugen do the rest
    inventory_file = repo / "inventory.yaml"
    _git(repo, "checkout", "--theirs", "inventory.yaml")
    _add_node(repo, "h-2")
    built = _taugen(repo, "build")
    assert built.returncode == 0, built.stderr
    assert "merge conflicts" in built.stderr  # the lock was read as both sides' maximum
    lock = (repo / "taugen.lock").read_text()
    assert '"h200-141gb": 28' in lock and "<<<<<<<" not in lock
    assert inventory_file.read_text().count("h-2") == 1
    check = _taugen(repo, "build", "--check")
    assert (check.returncode, check.stdout) == (0, "up to date\n"), check.stdout + check.stderr
