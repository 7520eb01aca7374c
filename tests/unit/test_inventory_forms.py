"""SPEC §1.2: the two inventory forms, and taugen's own labels found in an inventory."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from taugen.core.errors import Problem
from taugen.load.inventory import Inventory, load_inventory
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import (
    kube_node,
    labels_by_node,
    node_list,
    objects,
    problems_of,
    resolve_project,
    rules_of,
    run_build,
    write_project,
)


def _facts(inv: Inventory) -> dict[str, tuple[str | None, str | None, bool, int]]:
    return {n.name: (n.vm_size, n.site, n.ready, n.gpus) for n in inv.nodes}


def _load(tmp_path: Path, doc: dict[str, Any], name: str = "nodes.yaml") -> Inventory:
    path = tmp_path / name
    if name.endswith(".json"):
        path.write_text(json.dumps(doc, indent=4))
    else:
        write_yaml(path, doc)
    return load_inventory(path)


def test_nodelist_maps_name_vmsize_site_ready_allocatable(tmp_path: Path) -> None:
    """§1.2: name, instance-type label, region label, Ready condition, status.allocatable."""
    inv = _load(
        tmp_path,
        node_list([kube_node("a-0", region="westus3"), kube_node("a-1", "Standard_D8s_v5", gpus=0)]),
    )
    assert _facts(inv) == {
        "a-0": ("Standard_ND96isr_H200_v5", "westus3", True, 8),
        "a-1": ("Standard_D8s_v5", "eastus", True, 0),
    }
    assert inv.site is None
    assert {k: str(v) for k, v in inv.nodes[0].allocatable.items()} == {
        "cpu": "95800m",
        "memory": "1800Gi",
        "nvidia.com/gpu": "8",
        "pods": "110",
    }


def test_nodelist_kind_nodelist_is_accepted(tmp_path: Path) -> None:
    inv = _load(tmp_path, node_list([kube_node("a-0")], kind="NodeList"))
    assert _facts(inv) == {"a-0": ("Standard_ND96isr_H200_v5", "eastus", True, 8)}


def test_nodelist_beta_instance_type_fallback(tmp_path: Path) -> None:
    """§1.2: vmSize = node.kubernetes.io/instance-type, else beta.kubernetes.io/instance-type."""
    both = kube_node("both", "Standard_GA")
    both["metadata"]["labels"]["beta.kubernetes.io/instance-type"] = "Standard_Beta"
    beta_only = kube_node("beta", "Standard_Beta", instance_label="beta.kubernetes.io/instance-type")
    neither = kube_node("none", None, gpus=0)
    inv = _load(tmp_path, node_list([both, beta_only, neither]))
    assert {n.name: n.vm_size for n in inv.nodes} == {
        "both": "Standard_GA",
        "beta": "Standard_Beta",
        "none": None,
    }


def test_nodelist_ready_needs_ready_true_and_schedulable(tmp_path: Path) -> None:
    """§1.2: ready = condition Ready is True and spec.unschedulable is not true."""
    no_ready = kube_node("no-cond")
    no_ready["status"]["conditions"] = no_ready["status"]["conditions"][:1]
    items = [
        kube_node("ok"),
        kube_node("ok-explicit", unschedulable=False),
        kube_node("cordoned", unschedulable=True),
        kube_node("not-ready", ready="False"),
        kube_node("unknown", ready="Unknown"),
        no_ready,
    ]
    inv = _load(tmp_path, node_list(items))
    assert {n.name: n.ready for n in inv.nodes} == {
        "ok": True,
        "ok-explicit": True,
        "cordoned": False,
        "not-ready": False,
        "unknown": False,
        "no-cond": False,
    }


def test_nodelist_observed_at_is_latest_ready_heartbeat(tmp_path: Path) -> None:
    """§1.2: observedAt = the latest lastHeartbeatTime of any Ready condition (not other types)."""
    late_pressure = kube_node("a", heartbeat="2026-11-28T11:00:00Z")
    late_pressure["status"]["conditions"][0]["lastHeartbeatTime"] = "2026-11-29T00:00:00Z"
    items = [
        late_pressure,
        kube_node("b", heartbeat="2026-11-28T11:59:00+01:00"),  # 10:59Z
        kube_node("c", heartbeat="2026-11-28T11:58:30Z", ready="False"),
    ]
    inv = _load(tmp_path, node_list(items))
    assert inv.observed_at == datetime(2026, 11, 28, 11, 58, 30, tzinfo=UTC)


def test_nodelist_without_any_ready_heartbeat_is_an_error(tmp_path: Path) -> None:
    node = kube_node("a")
    node["status"]["conditions"] = [{"type": "Ready", "status": "True"}]
    path = write_yaml(tmp_path / "nodes.yaml", node_list([node]))
    problems = problems_of(lambda: load_inventory(path))
    assert [(p.path.name, p.rule) for p in problems] == [("nodes.yaml", "inventory")]


def test_nodelist_json_input(tmp_path: Path) -> None:
    """§1.2: `kubectl get nodes -o json` is accepted (JSON is YAML)."""
    inv = _load(tmp_path, node_list([kube_node("a-0"), kube_node("a-1", unschedulable=True)]), "nodes.json")
    assert _facts(inv) == {
        "a-0": ("Standard_ND96isr_H200_v5", "eastus", True, 8),
        "a-1": ("Standard_ND96isr_H200_v5", "eastus", False, 8),
    }
    assert inv.observed_at == datetime(2026, 11, 28, 12, tzinfo=UTC)


def test_cluster_inventory_json_input(tmp_path: Path) -> None:
    inv = _load(tmp_path, inventory([gpu_node("h-0", ready=False)]), "inv.json")
    assert _facts(inv) == {"h-0": ("Standard_ND96isr_H200_v5", None, False, 8)}
    assert inv.site == "eastus"


def test_nodelist_and_cluster_inventory_resolve_the_same(tmp_path: Path) -> None:
    """§1.2: both forms give the same resolved labels and readiness."""
    net = {"net.unbounded-cloud.io/network-domain": "ib-1"}
    kube = write_project(
        tmp_path / "kube",
        node_list([kube_node("a-0", labels=net), kube_node("a-1", unschedulable=True)]),
    )
    native = write_project(
        tmp_path / "native",
        inventory([gpu_node("a-0", labels=net), gpu_node("a-1", ready=False)]),
    )
    kube_nodes = resolve_project(kube).nodes
    native_nodes = resolve_project(native).nodes
    assert [(n.name, n.ready, n.gpus, dict(n.labels)) for n in kube_nodes] == [
        (n.name, n.ready, n.gpus, dict(n.labels)) for n in native_nodes
    ]


def test_nodelist_node_without_region_is_r11(tmp_path: Path) -> None:
    """§1.2/R11: a NodeList has no default site; a GPU node without a region label is an error."""
    project = write_project(tmp_path, node_list([kube_node("a-0", region=None)]))
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("inventory.yaml", "R11")]


OWN = {
    "tau.azure.com/gpu-class": "a100-80gb",  # differs from the resolved h200-141gb
    "kueue.azure.com/gpu-series": "nd-h200-v5",  # equals the resolved value: no drift
    "tau.azure.com/network-domain": "ib-fake",  # not a provider label: resolution ignores it
    "tau.azure.com/site": "westus",
    "tau.azure.com/infiniband": "true",
}


def _drift(warnings: tuple[Problem, ...]) -> list[tuple[str, str, int]]:
    return [(w.rule, w.severity, w.line) for w in warnings]


def test_own_labels_are_ignored_when_resolving(tmp_path: Path) -> None:
    """§1.2: tau.azure.com/ and kueue.azure.com/ labels in the inventory are outputs, not inputs."""
    plain = labels_by_node(resolve_project(write_project(tmp_path / "plain", inventory([gpu_node("h-0")]))))
    dirty = labels_by_node(
        resolve_project(write_project(tmp_path / "dirty", inventory([gpu_node("h-0", labels=OWN)])))
    )
    assert dirty == plain


def test_own_labels_that_differ_are_drift_warnings(tmp_path: Path) -> None:
    """§1.2: each own label whose value differs from the resolved one is one drift warning."""
    project = write_project(tmp_path, inventory([gpu_node("h-0", labels=OWN)]))
    result = run_build(project)
    drift = sorted((w for w in result.warnings if w.rule == "drift"), key=lambda w: w.message)
    assert [w.severity for w in drift] == ["warning"] * 4
    messages = [w.message for w in drift]
    for key, value in [
        ("tau.azure.com/gpu-class", "a100-80gb"),
        ("tau.azure.com/infiniband", "true"),
        ("tau.azure.com/network-domain", "ib-fake"),
        ("tau.azure.com/site", "westus"),
    ]:
        assert any(key in m and value in m and "h-0" in m for m in messages), (key, messages)
    assert all(w.path.name == "inventory.yaml" and w.line > 0 for w in drift)
    # The build succeeded and wrote the resolved values, not the drifted ones.
    node = objects(tmp_path)["Node/h-0"]
    assert node["metadata"]["labels"]["tau.azure.com/gpu-class"] == "h200-141gb"
    assert node["metadata"]["labels"]["tau.azure.com/network-domain"] == "singleton-h-0"


def test_own_labels_are_drift_on_every_node_after_many_without(tmp_path: Path) -> None:
    """Issue 36: resolve remembers label keys that are not taugen's own; a node whose keys are
    all remembered is skipped. Nodes without own labels first, then each of several with one,
    among the same other keys: every one is still found (sorted by name, so in this order)."""
    plain = [gpu_node(f"a-{i}", labels={"team": "x", "zone": "z"}) for i in range(5)]
    own = {"team": "x", "zone": "z", "tau.azure.com/gpu-class": "a100-80gb"}
    drifted = [gpu_node(f"b-{i}", labels=own) for i in range(3)]
    result = run_build(write_project(tmp_path, inventory([*plain, *drifted])))
    drift = [w.message.split(":")[0] for w in result.warnings if w.rule == "drift"]
    assert drift == ["node b-0", "node b-1", "node b-2"]


def test_matching_own_labels_are_not_drift(tmp_path: Path) -> None:
    resolved = labels_by_node(resolve_project(write_project(tmp_path / "a", inventory([gpu_node("h-0")]))))
    project = write_project(tmp_path / "b", inventory([gpu_node("h-0", labels=resolved["h-0"])]))
    assert [w for w in run_build(project).warnings if w.rule == "drift"] == []


def test_own_label_on_unlabelled_node_is_drift(tmp_path: Path) -> None:
    """§1.2: a CPU node carrying a gpu-class taugen would not give is drift too."""
    node = gpu_node(
        "cpu-0", vm_size="Standard_D8s_v5", gpus=0, labels={"tau.azure.com/gpu-class": "h200-141gb"}
    )
    project = write_project(tmp_path, inventory([gpu_node("h-0"), node]))
    result = run_build(project)
    assert [(w.rule, w.severity) for w in result.warnings] == [("R26", "warning"), ("drift", "warning")]
    assert "cpu-0" in result.warnings[1].message
    assert "Node/cpu-0" not in objects(tmp_path)


def test_own_gpu_class_label_does_not_classify_a_node(tmp_path: Path) -> None:
    """§1.2 + R4: a gpu-class label found on the node never stands in for a rule (fail closed)."""
    node = gpu_node("b200-0", vm_size="Standard_ND96isr_B200_v6", labels={"tau.azure.com/gpu-class": "b200"})
    project = write_project(tmp_path, inventory([node]))
    assert rules_of(problems_of(lambda: run_build(project))) == ["R4"]


def test_nodelist_own_labels_are_drift(tmp_path: Path) -> None:
    item = kube_node("a-0", labels={"tau.azure.com/gpu-class": "h100-80gb"})
    project = write_project(tmp_path, node_list([item]))
    result = run_build(project)
    assert [(w.rule, w.severity, w.path.name) for w in result.warnings] == [
        ("R26", "warning", "taugen.lock"),  # the first build starts the quota history
        ("drift", "warning", "inventory.yaml"),
    ]
    assert "h100-80gb" in result.warnings[1].message
    assert objects(tmp_path)["Node/a-0"]["metadata"]["labels"]["tau.azure.com/gpu-class"] == "h200-141gb"


def test_a_fractional_gpu_count_names_the_node(tmp_path: Path) -> None:
    """Issue 16: the message for "8.5" GPUs names the node, like the others."""
    node = gpu_node("h-0")
    node["allocatable"]["nvidia.com/gpu"] = "8.5"
    project = write_project(tmp_path, inventory([node]))
    (problem,) = problems_of(lambda: run_build(project))
    assert problem.message == "node h-0: allocatable nvidia.com/gpu must be a whole number, not 8500m"
