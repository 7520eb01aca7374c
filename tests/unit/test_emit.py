"""Emit (SPEC §3-§4): fixed field order, canonical quantities, same bytes on any machine."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from taugen.compile.manifest import Manifest
from taugen.emit.canonical import emit_objects, ordered, render
from tests.support.helpers import cpu_node, gpu_node, inventory, lock_semantics, rules, snapshot, write_yaml
from tests.support.unit import profile, run_build, write_profiles, write_project

REPO = Path(__file__).resolve().parents[2]
NET = "net.unbounded-cloud.io/network-domain"
ACC = "net.unbounded-cloud.io/accelerator-domain"


def _top_keys(text: str) -> list[list[str]]:
    """Top-level keys of each document, in file order."""
    docs: list[list[str]] = []
    for line in text.splitlines():
        if line == "---":
            docs.append([])
        elif line and not line.startswith((" ", "-", "#")):
            docs[-1].append(line.split(":", 1)[0])
    return docs


def _meta_keys(text: str) -> list[list[str]]:
    docs: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line == "metadata:":
            docs.append([])
            inside = True
        elif inside and line.startswith("  ") and not line.startswith("   "):
            docs[-1].append(line.strip().split(":", 1)[0])
        elif not line.startswith(" "):
            inside = False
    return docs


def _tree(root: Path) -> dict[str, bytes]:
    return {k: v for k, (v, _) in snapshot(root).items()}


def _fleet_inventory(order: int = 1) -> dict[str, Any]:
    nodes = [
        gpu_node("h-0", labels={NET: "ib-1", ACC: "r-1", "kubernetes.io/os": "linux"}),
        gpu_node("h-1", ready=False, labels={ACC: "r-1", NET: "ib-1"}),
        gpu_node("a-0", vm_size="Standard_NC24ads_A100_v4", gpus=1),
        gpu_node("x-0", vm_size="Standard_ND96isr_H100_v5"),
        cpu_node("sys-0", vm_size="Standard_D8s_v5"),
    ]
    for node in nodes:
        node["allocatable"] = dict(list(node["allocatable"].items())[::order])
        if "labels" in node:
            node["labels"] = dict(list(node["labels"].items())[::order])
    return inventory(nodes[::order])


def _write_fleet(root: Path, order: int = 1) -> Path:
    names = write_profiles(root, profile("p-a", "h200-141gb"), profile("p-b"), profile("p-c", "a100-80gb"))
    return write_project(
        root,
        _fleet_inventory(order),
        rules((["Standard_D8s_v5"], {"example.com/role": "system", "example.com/tier": "infra"})),
        profiles=names,
    )


def test_top_level_fields_in_fixed_order(tmp_path: Path) -> None:
    """§4: apiVersion, kind, metadata, spec, then the rest (sorted)."""
    run_build(_write_fleet(tmp_path))
    folder = tmp_path / "out" / "c1"
    assert _top_keys((folder / "clusterqueue.yaml").read_text()) == [
        ["apiVersion", "kind", "metadata", "spec"]
    ]
    assert (
        _top_keys((folder / "priorityclasses.yaml").read_text())
        == [["apiVersion", "kind", "metadata", "description", "globalDefault", "preemptionPolicy", "value"]]
        * 2
    )
    assert (
        _top_keys((folder / "workloadpriorityclasses.yaml").read_text())
        == [["apiVersion", "kind", "metadata", "value"]] * 2
    )
    assert _top_keys((folder / "profile-catalog.yaml").read_text()) == [
        ["apiVersion", "kind", "metadata", "data"]
    ]


def test_metadata_fields_in_fixed_order(tmp_path: Path) -> None:
    run_build(_write_fleet(tmp_path))
    folder = tmp_path / "out" / "c1"
    assert _meta_keys((folder / "localqueues.yaml").read_text()) == [
        ["name", "namespace", "labels", "annotations"]
    ]
    assert (
        _meta_keys((folder / "nodes" / "h200-141gb.ib-1" / "nodes.yaml").read_text())
        == [["name", "labels", "annotations"]] * 2
    )


def test_ordered_puts_known_fields_first_and_sorts_the_rest() -> None:
    obj = {
        "zeta": {"b": 1, "a": [{"y": 1, "x": 2}]},
        "spec": {"z": 1, "a": 2},
        "metadata": {
            "labels": {"b": "1", "a": "2"},
            "uid": "u",
            "name": "n",
            "annotations": {},
            "namespace": "s",
        },
        "kind": "K",
        "alpha": 1,
        "apiVersion": "v1",
    }
    result = ordered(obj)
    assert list(result) == ["apiVersion", "kind", "metadata", "spec", "alpha", "zeta"]
    assert list(result["metadata"]) == ["name", "namespace", "labels", "annotations", "uid"]
    assert list(result["metadata"]["labels"]) == ["a", "b"]
    assert list(result["spec"]) == ["a", "z"]
    assert result["zeta"] == {"a": [{"x": 2, "y": 1}], "b": 1}
    assert [list(item) for item in result["zeta"]["a"]] == [["x", "y"]]


def test_emit_sorts_objects_in_a_file_and_writes_the_kustomization() -> None:
    def obj(kind: str, name: str, namespace: str | None = None) -> dict[str, Any]:
        meta: dict[str, Any] = {"name": name}
        if namespace:
            meta["namespace"] = namespace
        return {"apiVersion": "v1", "kind": kind, "metadata": meta}

    files = render(
        emit_objects(
            [
                Manifest("b.yaml", obj("Thing", "z", "ns-b")),
                Manifest("b.yaml", obj("Thing", "a", "ns-b")),
                Manifest("b.yaml", obj("Thing", "q", "ns-a")),
                Manifest("a/x.yaml", obj("Other", "o")),
            ]
        )
    )
    assert list(files) == ["a/kustomization.yaml", "a/x.yaml", "b.yaml", "kustomization.yaml"]
    assert [
        (d["metadata"]["namespace"], d["metadata"]["name"]) for d in yaml.safe_load_all(files["b.yaml"])
    ] == [
        ("ns-a", "q"),
        ("ns-b", "a"),
        ("ns-b", "z"),
    ]
    assert yaml.safe_load(files["kustomization.yaml"]) == {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "resources": ["b.yaml"],  # a/ is a root of its own (G1: a shard)
    }
    assert yaml.safe_load(files["a/kustomization.yaml"])["resources"] == ["x.yaml"]
    assert files["b.yaml"].startswith(b"# Generated by taugen.")


def test_quantities_are_canonical_in_the_cluster_queue(tmp_path: Path) -> None:
    """§3: 100000 is written 100k; every nominalQuota is a canonical string."""
    run_build(_write_fleet(tmp_path))
    text = (tmp_path / "out" / "c1" / "clusterqueue.yaml").read_text()
    quotas = [line.split(": ", 1)[1] for line in text.splitlines() if "nominalQuota" in line]
    per_flavor = [("'0'", "'0'"), ("'1'", "'1'"), ("'8'", "'1'"), ("'16'", "'1'")]
    assert quotas == [q for gpus, slots in per_flavor for q in ("100k", "100Ti", gpus, slots)]
    assert "100000" not in text


def test_reordered_nodes_labels_and_allocatable_give_identical_bytes(tmp_path: Path) -> None:
    """§4: same inputs, whatever their order, give byte-identical files (and the same lock)."""
    run_build(_write_fleet(tmp_path / "a"))
    run_build(_write_fleet(tmp_path / "b", order=-1))
    assert _tree(tmp_path / "a" / "out") == _tree(tmp_path / "b" / "out")
    a, b = ((tmp_path / x / "taugen.lock").read_bytes() for x in "ab")
    assert lock_semantics(a) == lock_semantics(b)


def test_reordered_tenants_give_identical_bytes(tmp_path: Path) -> None:
    """§4: the tenant list's order is not meaningful (the selector and LocalQueues are sorted).

    So the catalog's inputs digest (R30) and the lock (§5) must not depend on it either.
    """
    run_build(write_project(tmp_path / "a", tenants=("team-a", "team-b", "team-c")))
    run_build(write_project(tmp_path / "b", tenants=("team-c", "team-a", "team-b")))
    assert _tree(tmp_path / "a" / "out") == _tree(tmp_path / "b" / "out")
    a, b = ((tmp_path / x / "taugen.lock").read_bytes() for x in "ab")
    assert lock_semantics(a) == lock_semantics(b)


def test_reordered_profile_files_give_identical_bytes(tmp_path: Path) -> None:
    docs = [profile(f"p-{i}", "h200-141gb") for i in range(5)]
    random.Random(7).shuffle(docs)
    for name, listed in (("a", docs), ("b", docs[::-1])):
        root = tmp_path / name
        for i, doc in enumerate(listed):
            write_yaml(root / "profiles" / f"{i}.yaml", doc)  # file names order differently
        run_build(write_project(root, profiles=["profiles"]))
    assert _tree(tmp_path / "a" / "out") == _tree(tmp_path / "b" / "out")


_BUILD = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from taugen.commands.build import BuildOptions, build
build(BuildOptions(project_file=Path(sys.argv[1]), now=datetime(2026, 11, 28, 13, tzinfo=UTC)))
"""


def test_bytes_identical_under_other_hash_seed_and_locale(tmp_path: Path) -> None:
    """§4: any Python hash seed, any locale: a fresh interpreter writes the same bytes as this one."""
    run_build(_write_fleet(tmp_path / "here"))
    project = _write_fleet(tmp_path / "there")
    seed = "1" if os.environ.get("PYTHONHASHSEED") == "4242" else "4242"
    env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": "C", "LANG": "C"}
    proc = subprocess.run(
        [sys.executable, "-c", _BUILD, str(project)], cwd=REPO, env=env, capture_output=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr.decode()
    here, there = _tree(tmp_path / "here"), _tree(tmp_path / "there")
    assert len(here) > 10
    assert here == there
