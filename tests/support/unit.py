"""Helpers shared by the unit tests: call the core (load, resolve, build) on small projects."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.build import BuildOptions, BuildResult, build
from taugen.core.errors import InputError, Problem
from taugen.load.project import load_cluster_inputs, load_project
from taugen.resolve.cluster import ResolvedCluster, resolve
from tests.support.helpers import OBSERVED, read_objects, write_yaml
from tests.support.helpers import write_project as write_full_project

# One hour after tests.support.helpers.OBSERVED: every build gets an explicit clock.
NOW = datetime(2026, 11, 28, 13, 0, 0, tzinfo=UTC)
HEARTBEAT = "2026-11-28T12:00:00Z"
API_VERSION = "taugen.tau.azure.com/v1alpha1"

MANAGED = {"app.kubernetes.io/managed-by": "taugen"}
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"
NODE_ANNOTATIONS = {
    "argocd.argoproj.io/sync-options": "ServerSideApply=true,Validate=false,Prune=false,Delete=false",
    "argocd.argoproj.io/sync-wave": "-2",
    "kustomize.toolkit.fluxcd.io/prune": "disabled",
    "kustomize.toolkit.fluxcd.io/ssa": "Merge",
}


def write_project(
    root: Path,
    inv: dict[str, Any] | None = None,
    rules_doc: dict[str, Any] | None = None,
    tenants: tuple[str, ...] = ("team-a",),
    profiles: list[str] | None = None,
    **cluster: Any,
) -> Path:
    """tests.support.helpers.write_project with one small profile instead of the eight built-in ones.

    Loading profiles is most of a small build's time (round-trip YAML): this keeps the unit
    suite fast. Tests about the catalog pass their own profiles.
    """
    if profiles is None:
        profiles = write_profiles(root, profile("cpu-batch"))
    return write_full_project(root, inv, rules_doc, tenants, profiles, **cluster)


def run_build(project: Path, **options: Any) -> BuildResult:
    """build() with the fixed clock unless the test gives its own `now`."""
    options.setdefault("now", NOW)
    return build(BuildOptions(project_file=project, **options))


def objects(root: Path, cluster: str = "c1") -> dict[str, dict[str, Any]]:
    return read_objects(root / "out" / cluster)


def resolve_project(project: Path) -> ResolvedCluster:
    """Load and resolve the first cluster of a project (no compile, nothing written)."""
    loaded = load_project(project)
    return resolve(load_cluster_inputs(loaded, loaded.project.clusters[0]))


def labels_by_node(cluster: ResolvedCluster) -> dict[str, dict[str, str]]:
    return {n.name: dict(n.labels) for n in cluster.nodes}


def problems_of(call: Callable[[], object]) -> list[Problem]:
    """The problems of the InputError `call` raises (the test fails when it raises none)."""
    with pytest.raises(InputError) as info:
        call()
    return info.value.problems


def rules_of(problems: list[Problem]) -> list[str]:
    return [p.rule for p in problems]


def profile(
    name: str,
    gpu_class: str | list[str] | None = None,
    topology: str = "unconstrained",
    tier: str = "default",
) -> dict[str, Any]:
    policy: dict[str, Any] = {"priority_tier": tier, "topology": topology}
    if gpu_class is not None:
        policy["gpu_class"] = gpu_class
    return {
        "apiVersion": API_VERSION,
        "kind": "WorkloadProfile",
        "metadata": {"name": name},
        "policy": policy,
    }


def write_profiles(root: Path, *docs: dict[str, Any]) -> list[str]:
    """Profile files in root/profiles/; returns the project's `profiles:` value."""
    for doc in docs:
        write_yaml(root / "profiles" / f"{doc['metadata']['name']}.yaml", doc)
    return ["profiles"]


def write_multi(
    root: Path, inventories: dict[str, dict[str, Any]], tenants: tuple[str, ...] = ("t1",)
) -> Path:
    """A project with one cluster per inventory (cluster name = key); returns the project file."""
    clusters = []
    for name, inv in inventories.items():
        write_yaml(root / f"{name}-inventory.yaml", inv)
        clusters.append(
            {
                "name": name,
                "inventory": f"{name}-inventory.yaml",
                "tenants": [{"namespace": t} for t in tenants],
            }
        )
    project = {
        "apiVersion": API_VERSION,
        "kind": "Project",
        "profiles": write_profiles(root, profile("cpu-batch")),
        "clusters": clusters,
    }
    return write_yaml(root / "taugen.yaml", project)


def kube_node(
    name: str,
    instance_type: str | None = "Standard_ND96isr_H200_v5",
    *,
    region: str | None = "eastus",
    gpus: int = 8,
    ready: str = "True",
    unschedulable: bool | None = None,
    heartbeat: str = HEARTBEAT,
    labels: dict[str, str] | None = None,
    instance_label: str = "node.kubernetes.io/instance-type",
) -> dict[str, Any]:
    """One item of `kubectl get nodes -o yaml`, with the fields the API server writes."""
    meta_labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
    if instance_type is not None:
        meta_labels[instance_label] = instance_type
    if region is not None:
        meta_labels["topology.kubernetes.io/region"] = region
    meta_labels.update(labels or {})
    allocatable = {"cpu": "95800m", "memory": "1800Gi", "pods": "110"}
    if gpus:
        allocatable["nvidia.com/gpu"] = str(gpus)
    spec: dict[str, Any] = {"providerID": f"azure:///x/{name}"}
    if gpus:  # an AKS GPU pool created with --node-taints sku=gpu:NoSchedule (R24, R39)
        spec["taints"] = [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}]
    if unschedulable is not None:
        spec["unschedulable"] = unschedulable
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": meta_labels, "resourceVersion": "1"},
        "spec": spec,
        "status": {
            "allocatable": allocatable,
            "capacity": allocatable,
            "conditions": [
                {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": heartbeat},
                {"type": "Ready", "status": ready, "lastHeartbeatTime": heartbeat, "reason": "KubeletReady"},
            ],
            "nodeInfo": {"kubeletVersion": "v1.33.2"},
        },
    }


def node_list(items: list[dict[str, Any]], kind: str = "List") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": kind, "metadata": {"resourceVersion": ""}, "items": items}


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first line of `path` that contains `needle`."""
    lines = path.read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def write_lock(root: Path, gpu_quota: dict[str, int], observed_at: str = OBSERVED) -> None:
    """A committed lock for cluster c1 with these R26 high-water marks (digests are dummies)."""
    lock = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Lock",
        "clusters": {
            "c1": {
                "observedAt": observed_at,
                "inputsDigest": "sha256:" + "0" * 64,
                "treeDigest": "sha256:" + "0" * 64,
                "gpuQuota": gpu_quota,
            }
        },
    }
    (root / "taugen.lock").write_text(json.dumps(lock))
