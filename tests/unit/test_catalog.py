"""The resolved profile catalog (R30): readiness with reasons, and the inputs digest."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.compile.digest import catalog_digest
from taugen.compile.quota import plan_quotas
from taugen.load.project import load_project, load_project_profiles
from tests.support.helpers import gpu_node, inventory, load_json, rules, write_yaml
from tests.support.unit import (
    MANAGED,
    objects,
    profile,
    resolve_project,
    run_build,
    write_profiles,
    write_project,
)

CATALOG = "ConfigMap/kueue-system/taugen-profile-catalog"
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
H100 = "Standard_ND96isr_H100_v5"
A100 = "Standard_NC24ads_A100_v4"

PROFILES = (
    profile("cpu-batch"),
    profile("h200-net", "h200-141gb", "same-network-domain", "priority"),
    profile("h100-host", "h100-80gb", "same-host"),
    profile("a100-acc", "a100-80gb", "same-accelerator-domain"),
    profile("b200-site", "b200-192gb", "same-site"),
)


def _catalog(root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the ConfigMap, its parsed profiles.yaml)."""
    obj = objects(root)[CATALOG]
    return obj, yaml.safe_load(obj["data"]["profiles.yaml"])


def _entries(root: Path) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in _catalog(root)[1]["profiles"]}


def _digest(root: Path) -> str:
    return str(_catalog(root)[1]["inputsDigest"])


@pytest.fixture(scope="module")
def catalog_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """h200 Ready, a100 present but none Ready, h100 vanished (kept by R26), b200 never present."""
    tmp_path = tmp_path_factory.mktemp("catalog")
    names = write_profiles(tmp_path, *PROFILES)
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("x-0", H100)]), profiles=names))
    write_yaml(
        tmp_path / "inventory.yaml",
        inventory([gpu_node("h-0"), gpu_node("a-0", A100, gpus=1, ready=False)]),
    )
    run_build(tmp_path / "taugen.yaml")
    return tmp_path


def test_r30_catalog_object(catalog_root: Path) -> None:
    """R30: one ConfigMap per cluster, carrying the digest it was resolved from."""
    obj, body = _catalog(catalog_root)
    digest = body["inputsDigest"]
    assert DIGEST.match(digest)
    assert {k: v for k, v in obj.items() if k != "data"} == {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "taugen-profile-catalog",
            "namespace": "kueue-system",
            "labels": MANAGED,
            "annotations": {"argocd.argoproj.io/sync-wave": "1", "tau.azure.com/inputs-digest": digest},
        },
    }
    assert (body["cluster"], [e["name"] for e in body["profiles"]]) == (
        "c1",
        ["a100-acc", "b200-site", "cpu-batch", "h100-host", "h200-net"],
    )


def test_r30_ready_profiles(catalog_root: Path) -> None:
    entries = _entries(catalog_root)
    assert entries["h200-net"] == {
        "name": "h200-net",
        "policy": {"gpu_class": "h200-141gb", "priority_tier": "priority", "topology": "same-network-domain"},
        "priorityClass": "taugrid-priority",
        "ready": True,
        "topologyLevel": "tau.azure.com/network-domain",
    }
    assert entries["cpu-batch"] == {
        "name": "cpu-batch",
        "policy": {"gpu_class": None, "priority_tier": "default", "topology": "unconstrained"},
        "priorityClass": "taugrid-default",
        "ready": True,
        "topologyLevel": None,
    }


@pytest.mark.parametrize(
    ("name", "gpu_class", "topology", "level", "phrase"),
    [
        ("b200-site", "b200-192gb", "same-site", "tau.azure.com/site", "no nodes"),
        ("h100-host", "h100-80gb", "same-host", "kubernetes.io/hostname", "no nodes"),
        ("a100-acc", "a100-80gb", "same-accelerator-domain", "tau.azure.com/accelerator-domain", "no Ready"),
    ],
    ids=["unknown-class", "vanished-class", "no-ready-node"],
)
def test_r30_not_ready_profiles_say_why(
    catalog_root: Path, name: str, gpu_class: str, topology: str, level: str, phrase: str
) -> None:
    """R30: ready: false with the reason (class unknown here, gone, or with no Ready node)."""
    entry = dict(_entries(catalog_root)[name])
    reason = entry.pop("reason")
    assert gpu_class in reason and phrase in reason and "c1" in reason
    assert entry == {
        "name": name,
        "policy": {"gpu_class": gpu_class, "priority_tier": "default", "topology": topology},
        "priorityClass": "taugrid-default",
        "ready": False,
        "topologyLevel": level,
    }


def test_r30_vanished_and_unknown_reasons_differ(catalog_root: Path) -> None:
    """R30: 'gone from this cluster (flavor kept by R26)' is told apart from 'never here'."""
    entries = _entries(catalog_root)
    assert entries["h100-host"]["reason"] != entries["b200-site"]["reason"].replace("b200-192gb", "h100-80gb")


def test_r30_digest_matches_the_lock(catalog_root: Path) -> None:
    lock = load_json(catalog_root / "taugen.lock")
    assert lock["clusters"]["c1"]["inputsDigest"] == _digest(catalog_root)


def _digest_of(root: Path, nodes: list[dict[str, Any]], **project: Any) -> str:
    """The inputs digest a build would write (R30), computed without writing anything."""
    path = write_project(root, inventory(nodes), **project)
    resolved = resolve_project(path)
    quotas, _ = plan_quotas(resolved, {}, allow_decrease=False)
    return catalog_digest(resolved, load_project_profiles(load_project(path)), quotas)


def test_r30_digest_ignores_node_order(tmp_path: Path) -> None:
    nodes = [gpu_node("h-0"), gpu_node("h-1", ready=False), gpu_node("x-0", H100)]
    assert _digest_of(tmp_path / "a", nodes) == _digest_of(tmp_path / "b", nodes[::-1])


@pytest.mark.parametrize(
    "changed",
    [
        [gpu_node("h-0"), gpu_node("h-1"), gpu_node("h-2")],
        [gpu_node("h-0"), gpu_node("h-1", ready=False)],
        [gpu_node("h-0"), gpu_node("h-1", gpus=4)],
        [gpu_node("h-0"), gpu_node("h-1", labels={"net.unbounded-cloud.io/network-domain": "ib"})],
    ],
    ids=["node-added", "one-node-not-ready", "allocatable", "provider-label"],
)
def test_r30_digest_holds_when_the_catalog_would_not_change(
    tmp_path: Path, changed: list[dict[str, Any]]
) -> None:
    """Issue 16: a change that leaves every profile's readiness as it is leaves the digest, so
    two independent pull requests to one cluster do not conflict in the lock or the catalog."""
    base = [gpu_node("h-0"), gpu_node("h-1")]
    assert _digest_of(tmp_path / "a", base) == _digest_of(tmp_path / "b", changed)


def test_r30_digest_holds_when_a_tenant_is_added(tmp_path: Path) -> None:
    nodes = [gpu_node("h-0")]
    tenants = ("team-a", "team-b")
    assert _digest_of(tmp_path / "a", nodes) == _digest_of(tmp_path / "b", nodes, tenants=tenants)


@pytest.mark.parametrize(
    "changed",
    [
        [gpu_node("h-0", ready=False), gpu_node("h-1", ready=False)],
        [gpu_node("h-0"), gpu_node("h-1"), gpu_node("x-0", H100)],
    ],
    ids=["no-ready-node-left", "class-added"],
)
def test_r30_digest_changes_with_readiness(tmp_path: Path, changed: list[dict[str, Any]]) -> None:
    base = [gpu_node("h-0"), gpu_node("h-1")]
    assert _digest_of(tmp_path / "a", base) != _digest_of(tmp_path / "b", changed)


def test_r30_digest_changes_with_rules_that_change_classes_and_with_profiles(tmp_path: Path) -> None:
    nodes = [gpu_node("h-0")]
    base = _digest_of(tmp_path / "a", nodes)
    reclass = rules((["Standard_ND96isr_H200_v5"], {"tau.azure.com/gpu-class": "h200-custom"}))
    with_rule = _digest_of(tmp_path / "b", nodes, rules_doc=reclass)
    names = write_profiles(tmp_path / "c", profile("only-one"))
    with_profiles = _digest_of(tmp_path / "c", nodes, profiles=names)
    assert len({base, with_rule, with_profiles}) == 3
