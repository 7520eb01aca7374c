"""A compiled tree's objects as a list (duplicates kept), their identities and JSON sizes (SPEC G2)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

Identity = tuple[str, str, str]  # (kind, namespace, name): G2's key


def tree_objects(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """(file relative to folder, object) for every document of every manifest file."""
    found = []
    for path in sorted(folder.rglob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs = yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            found += [(path.relative_to(folder).as_posix(), d) for d in docs if d]
    return found


def identity(obj: dict[str, Any]) -> Identity:
    meta = obj["metadata"]
    return (obj["kind"], meta.get("namespace", ""), meta["name"])


def shared_identities(folder: Path) -> dict[Identity, int]:
    """Every (kind, namespace, name) that more than one object of the tree has, with its count."""
    counts = Counter(identity(obj) for _, obj in tree_objects(folder))
    return {key: n for key, n in counts.items() if n > 1}


def json_bytes(obj: dict[str, Any]) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())


def kustomize_command() -> list[str]:
    """kustomize v5.8.1 as tools/realcluster/build makes it (the one Argo CD 3.5 and Flux render
    with; .ci/run puts it first on PATH), else `kubectl kustomize`; the test skips without either."""
    if found := shutil.which("kustomize"):
        return [found, "build"]
    if kubectl := shutil.which("kubectl"):
        return [kubectl, "kustomize"]
    pytest.skip("neither kustomize (tools/realcluster/build) nor kubectl is on PATH")


def kustomize_errors(folder: Path) -> str | None:
    """kustomize's first error over the folder and each of its node-label shards (nodes/<shard>/,
    roots of their own: SPEC G1), None when all build."""
    command = kustomize_command()
    for root in [folder, *sorted(k.parent for k in folder.glob("nodes/*/kustomization.yaml"))]:
        done = subprocess.run([*command, str(root)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            return done.stderr[-500:]
    return None


REPO = Path(__file__).resolve().parents[2]


def example_project(root: Path, node_labels: str | None = None) -> Path:
    """A copy of the repository's example project (its lock included, so quotas start where the
    example's do), every cluster on `nodeLabels: node_labels` when given (README, Node labels
    through node-feature-discovery); returns its taugen.yaml."""
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copy(REPO / "taugen.lock", root / "taugen.lock")
    project = yaml.safe_load((REPO / "taugen.yaml").read_text())
    for cluster in project["clusters"]:
        if node_labels is not None:
            cluster["nodeLabels"] = node_labels
    (root / "taugen.yaml").write_text(yaml.safe_dump(project))
    return root / "taugen.yaml"
