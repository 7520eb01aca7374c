"""Builders for small projects in a temporary folder (tests call the core or the CLI on them)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

OBSERVED = "2026-11-28T12:00:00Z"


def gpu_node(
    name: str,
    vm_size: str = "Standard_ND96isr_H200_v5",
    gpus: int = 8,
    labels: dict[str, str] | None = None,
    ready: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    node: dict[str, Any] = {"name": name, "vmSize": vm_size, "allocatable": {"cpu": "96", "memory": "1800Gi"}}
    if gpus:
        node["allocatable"]["nvidia.com/gpu"] = str(gpus)
    if not ready:
        node["ready"] = False
    if labels:
        node["labels"] = labels
    node.update(extra)
    return node


def cpu_node(name: str, vm_size: str = "Standard_D16s_v5") -> dict[str, Any]:
    return gpu_node(name, vm_size, gpus=0)


def inventory(
    nodes: list[dict[str, Any]], observed_at: str = OBSERVED, site: str | None = "eastus", name: str = "c1"
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "ClusterInventory",
        "metadata": {"name": name},
        "observedAt": observed_at,
        "nodes": nodes,
    }
    if site is not None:
        doc["site"] = site
    return doc


def rules(*entries: tuple[list[str], dict[str, str]]) -> dict[str, Any]:
    return {"extraNodeLabelRules": [{"match": {"vmSizes": v}, "labels": labels} for v, labels in entries]}


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def write_project(
    root: Path,
    inv: dict[str, Any] | None = None,
    rules_doc: dict[str, Any] | None = None,
    tenants: tuple[str, ...] = ("team-a",),
    profiles: list[str] | None = None,
    **cluster: Any,
) -> Path:
    """A one-cluster project `c1` in root; returns the project file."""
    write_yaml(root / "inventory.yaml", inv if inv is not None else inventory([gpu_node("h200-0")]))
    spec: dict[str, Any] = {
        "name": "c1",
        "inventory": "inventory.yaml",
        "tenants": [{"namespace": t} for t in tenants],
        **cluster,
    }
    if rules_doc is not None:
        write_yaml(root / "rules.yaml", rules_doc)
        spec["rules"] = ["rules.yaml"]
    project: dict[str, Any] = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Project",
        "clusters": [spec],
    }
    if profiles is not None:
        project["profiles"] = profiles
    return write_yaml(root / "taugen.yaml", project)


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its bytes and mtime: proves nothing was touched."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def read_objects(folder: Path) -> dict[str, dict[str, Any]]:
    """kind/[namespace/]name -> object, for every manifest under folder."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.rglob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            meta = doc["metadata"]
            ns = f"{meta['namespace']}/" if meta.get("namespace") else ""
            found[f"{doc['kind']}/{ns}{meta['name']}"] = doc
    return found


def load_json(path: Path) -> Any:
    return json.loads(path.read_text())


def lock_semantics(text: bytes) -> dict[str, Any]:
    """The lock as data; it holds no cache key (R33: the no-op cache lives outside the tree),
    so reordered input gives the same lock, byte for byte."""
    lock: dict[str, Any] = json.loads(text)
    for entry in lock["clusters"].values():
        assert set(entry) == {"gpuQuota", "inputsDigest", "observedAt"}, entry
    return lock


REGENERATE_GOLDEN = os.environ.get("TAUGEN_REGENERATE_GOLDEN") == "1"


def assert_golden(actual: str, golden: Path, test_file: str) -> None:
    """`actual` equals the golden file; with TAUGEN_REGENERATE_GOLDEN=1 it is written instead."""
    if REGENERATE_GOLDEN:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        pytest.skip(f"regenerated {golden.name}")
    assert golden.is_file(), (
        f"missing {golden}: run `TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest {test_file}`"
    )
    assert actual == golden.read_text(encoding="utf-8")


STALE_PROFILE = """apiVersion: taugen.tau.azure.com/v1alpha1
kind: WorkloadProfile
metadata: {name: zz-added-after-the-build}
policy: {priority_tier: default, topology: unconstrained}
"""


def add_profile(project: Path) -> None:
    """Change what the committed catalog was resolved from (R30): one more profile."""
    (project.parent / "profiles" / "zz-added-after-the-build.yaml").write_text(STALE_PROFILE)
