"""GPU quota (R26: high-water marks in the lock) and slot quota (R27: Ready nodes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.helpers import gpu_node, inventory, load_json, write_yaml
from tests.support.unit import MANAGED, SKIP_DRY_RUN, objects, run_build, write_lock, write_project

H100 = "Standard_ND96isr_H100_v5"
SLOT = "tau.azure.com/torchrun-host-slot"


def _quotas(root: Path) -> dict[str, tuple[str, str]]:
    """flavor -> (nvidia.com/gpu, torchrun-host-slot) nominal quota, in ClusterQueue order."""
    flavors = objects(root)["ClusterQueue/taugrid"]["spec"]["resourceGroups"][0]["flavors"]
    found = {}
    for flavor in flavors:
        quota = {r["name"]: r["nominalQuota"] for r in flavor["resources"]}
        found[flavor["name"]] = (quota["nvidia.com/gpu"], quota[SLOT])
    return found


def _lock_quota(root: Path) -> Any:
    return load_json(root / "taugen.lock")["clusters"]["c1"]["gpuQuota"]


def _rebuild(root: Path, nodes: list[dict[str, Any]], **options: Any) -> list[tuple[str, str]]:
    write_yaml(root / "inventory.yaml", inventory(nodes))
    result = run_build(root / "taugen.yaml", **options)
    return [(w.rule, w.severity) for w in result.warnings]


def test_r26_gpu_quota_is_summed_allocatable_of_all_nodes(tmp_path: Path) -> None:
    """R26: every node of the class counts, Ready or not; R27: slots count Ready nodes only."""
    nodes = [gpu_node("h-0"), gpu_node("h-1", gpus=4), gpu_node("h-2", ready=False), gpu_node("x-0", H100)]
    run_build(write_project(tmp_path, inventory(nodes)))
    assert _quotas(tmp_path) == {
        "taugrid-default-cpu": ("0", "0"),
        "taugrid-h100-80gb": ("8", "1"),
        "taugrid-h200-141gb": ("20", "2"),
    }
    assert _lock_quota(tmp_path) == {"h100-80gb": 8, "h200-141gb": 20}


def test_r26_quota_grows_with_the_inventory(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0")])))
    assert _rebuild(tmp_path, [gpu_node("h-0"), gpu_node("h-1")]) == []
    assert _quotas(tmp_path)["taugrid-h200-141gb"] == ("16", "2")
    assert _lock_quota(tmp_path) == {"h200-141gb": 16}


def test_r26_quota_never_drops_below_the_lock(tmp_path: Path) -> None:
    """R26: fewer GPUs keep the high-water mark, with a warning; slots follow the inventory."""
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1")])))
    assert _rebuild(tmp_path, [gpu_node("h-0")]) == [("R26", "warning")]
    assert _quotas(tmp_path)["taugrid-h200-141gb"] == ("16", "1")
    assert _lock_quota(tmp_path) == {"h200-141gb": 16}


def test_r26_high_water_mark_read_from_a_committed_lock(tmp_path: Path) -> None:
    """R26: the lock's mark applies to the first build that sees it."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    write_lock(tmp_path, {"h200-141gb": 64})
    result = run_build(project)
    assert [(w.rule, w.severity) for w in result.warnings] == [("R26", "warning")]
    assert "64" in result.warnings[0].message
    assert _quotas(tmp_path)["taugrid-h200-141gb"] == ("64", "1")
    assert _lock_quota(tmp_path) == {"h200-141gb": 64}


def test_r26_vanished_class_kept_with_slot_zero_and_a_warning(tmp_path: Path) -> None:
    """R26: a class that disappears keeps its flavor and GPU quota, slot quota 0, and warns."""
    run_build(
        write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("x-0", H100), gpu_node("x-1", H100)]))
    )
    warnings = _rebuild(tmp_path, [gpu_node("h-0")])
    assert warnings == [("R26", "warning")]
    assert _quotas(tmp_path) == {
        "taugrid-default-cpu": ("0", "0"),
        "taugrid-h100-80gb": ("16", "0"),
        "taugrid-h200-141gb": ("8", "1"),
    }
    assert objects(tmp_path)["ResourceFlavor/taugrid-h100-80gb"] == {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "ResourceFlavor",
        "metadata": {
            "name": "taugrid-h100-80gb",
            "labels": MANAGED,
            "annotations": {
                "argocd.argoproj.io/sync-options": SKIP_DRY_RUN,
                "argocd.argoproj.io/sync-wave": "-1",
                "tau.azure.com/ready-torchrun-host-slots": "0",
            },
        },
        "spec": {
            "nodeLabels": {"tau.azure.com/gpu-class": "h100-80gb"},
            "nodeTaints": [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}],
            "topologyName": "taugrid-gpu-topology",
        },
    }
    assert _lock_quota(tmp_path) == {"h100-80gb": 16, "h200-141gb": 8}


def test_r26_vanished_class_warning_names_the_class(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("x-0", H100)])))
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    (warning,) = run_build(tmp_path / "taugen.yaml").warnings
    assert "h100-80gb" in warning.message
    assert warning.path.name == "inventory.yaml"


def test_r26_allow_quota_decrease_lowers(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1")])))
    assert _rebuild(tmp_path, [gpu_node("h-0")], allow_quota_decrease=True) == []
    assert _quotas(tmp_path)["taugrid-h200-141gb"] == ("8", "1")
    assert _lock_quota(tmp_path) == {"h200-141gb": 8}


def test_r26_allow_quota_decrease_prunes_a_vanished_class(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("x-0", H100)])))
    assert _rebuild(tmp_path, [gpu_node("h-0")], allow_quota_decrease=True) == []
    assert _quotas(tmp_path) == {"taugrid-default-cpu": ("0", "0"), "taugrid-h200-141gb": ("8", "1")}
    assert "ResourceFlavor/taugrid-h100-80gb" not in objects(tmp_path)
    assert _lock_quota(tmp_path) == {"h200-141gb": 8}
    assert not (tmp_path / "out" / "c1" / "nodes" / "h100-80gb.yaml").exists()


def test_r26_quota_sequence_never_drops_without_the_flag(tmp_path: Path) -> None:
    """R26 as a property over a sequence of inventories: quota = running maximum."""
    run_build(write_project(tmp_path, inventory([gpu_node("h-0")])))
    seen = []
    for count in [3, 1, 5, 0]:
        nodes = [gpu_node(f"h-{i}") for i in range(count)] or [gpu_node("x-0", H100)]
        _rebuild(tmp_path, nodes)
        seen.append(_quotas(tmp_path)["taugrid-h200-141gb"][0])
    assert seen == ["24", "24", "40", "40"]


def test_r27_slot_quota_tracks_readiness_both_ways(tmp_path: Path) -> None:
    """R27: one slot per Ready node of the class, down and back up (no high-water mark)."""
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1"), gpu_node("h-2")])))
    seen = [_quotas(tmp_path)["taugrid-h200-141gb"]]
    _rebuild(tmp_path, [gpu_node("h-0"), gpu_node("h-1", ready=False), gpu_node("h-2", ready=False)])
    seen.append(_quotas(tmp_path)["taugrid-h200-141gb"])
    _rebuild(tmp_path, [gpu_node("h-0"), gpu_node("h-1"), gpu_node("h-2")])
    seen.append(_quotas(tmp_path)["taugrid-h200-141gb"])
    assert seen == [("24", "3"), ("24", "1"), ("24", "3")]
    annotation = objects(tmp_path)["ResourceFlavor/taugrid-h200-141gb"]["metadata"]["annotations"]
    assert annotation["tau.azure.com/ready-torchrun-host-slots"] == "3"


def test_r27_class_with_no_ready_node_has_slot_zero(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0", ready=False)])))
    assert _quotas(tmp_path)["taugrid-h200-141gb"] == ("8", "0")
    annotation = objects(tmp_path)["ResourceFlavor/taugrid-h200-141gb"]["metadata"]["annotations"]
    assert annotation["tau.azure.com/ready-torchrun-host-slots"] == "0"
