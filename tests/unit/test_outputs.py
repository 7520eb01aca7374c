"""Kueue backend outputs (SPEC §3: R20-R25, R28, R29), compared as whole objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.helpers import cpu_node, gpu_node, inventory, rules
from tests.support.unit import MANAGED, NODE_ANNOTATIONS, SKIP_DRY_RUN, objects, run_build, write_project

KUEUE = "kueue.x-k8s.io/v1beta2"
NET = "net.unbounded-cloud.io/network-domain"
ACC = "net.unbounded-cloud.io/accelerator-domain"
SLOT = "tau.azure.com/torchrun-host-slot"


def meta_of(
    name: str,
    wave: str,
    *,
    kueue: bool = True,
    namespace: str | None = None,
    annotations: dict[str, str] | None = None,
) -> Any:
    meta: dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    meta["labels"] = dict(MANAGED)
    meta["annotations"] = {"argocd.argoproj.io/sync-wave": wave, **(annotations or {})}
    if kueue:
        meta["annotations"]["argocd.argoproj.io/sync-options"] = SKIP_DRY_RUN
    return meta


def _flavor_quota(name: str, gpus: str, slots: str) -> dict[str, Any]:
    quota = {"cpu": "100k", "memory": "100Ti", "nvidia.com/gpu": gpus, SLOT: slots}
    return {"name": name, "resources": [{"name": r, "nominalQuota": q} for r, q in quota.items()]}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Two H200 (one not Ready) on a fabric, one A100, one labelled CPU node, one plain CPU node."""
    tmp_path = tmp_path_factory.mktemp("fleet")
    inv = inventory(
        [
            gpu_node("h200-1", ready=False, labels={NET: "ib-3", ACC: "rack-7"}),
            gpu_node("h200-0", labels={NET: "ib-3", ACC: "rack-7"}),
            gpu_node("a100-0", vm_size="Standard_NC24ads_A100_v4", gpus=1),
            cpu_node("sys-0", vm_size="Standard_D8s_v5"),
            cpu_node("cpu-0"),
        ]
    )
    project = write_project(
        tmp_path,
        inv,
        rules((["Standard_D8s_v5"], {"node-pool.example.com/role": "system"})),
        tenants=("team-b", "team-a"),
    )
    run_build(project)
    return objects(tmp_path)


def test_object_set_is_exactly_the_spec_outputs(fleet: dict[str, dict[str, Any]]) -> None:
    assert sorted(fleet) == [
        "ClusterQueue/taugrid",
        "ConfigMap/kueue-system/taugen-profile-catalog",
        "LocalQueue/team-a/taugrid",
        "LocalQueue/team-b/taugrid",
        "Node/a100-0",
        "Node/h200-0",
        "Node/h200-1",
        "Node/sys-0",
        "NodeFeatureRule/taugen-torchrun-host-slot",  # G4
        "PriorityClass/taugrid-default",
        "PriorityClass/taugrid-priority",
        "ResourceFlavor/taugrid-a100-80gb",
        "ResourceFlavor/taugrid-default-cpu",
        "ResourceFlavor/taugrid-h200-141gb",
        "Topology/taugrid-gpu-topology",
        "ValidatingAdmissionPolicy/taugen-no-ghost-nodes",  # G3
        "ValidatingAdmissionPolicyBinding/taugen-no-ghost-nodes",
        "WorkloadPriorityClass/taugrid-default",
        "WorkloadPriorityClass/taugrid-priority",
    ]


@pytest.mark.parametrize(("name", "value"), [("taugrid-default", 1000), ("taugrid-priority", 1200)])
def test_r20_priority_classes(fleet: dict[str, dict[str, Any]], name: str, value: int) -> None:
    """R20: value, PreemptLowerPriority, globalDefault false (a free-text description is allowed)."""
    obj = dict(fleet[f"PriorityClass/{name}"])
    assert isinstance(obj.pop("description", ""), str)
    assert obj == {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": meta_of(name, "-2", kueue=False),
        "globalDefault": False,
        "preemptionPolicy": "PreemptLowerPriority",
        "value": value,
    }


@pytest.mark.parametrize(("name", "value"), [("taugrid-default", 1000), ("taugrid-priority", 1200)])
def test_r21_workload_priority_classes(fleet: dict[str, dict[str, Any]], name: str, value: int) -> None:
    assert fleet[f"WorkloadPriorityClass/{name}"] == {
        "apiVersion": KUEUE,
        "kind": "WorkloadPriorityClass",
        "metadata": meta_of(name, "-2"),
        "value": value,
    }


def test_r22_topology(fleet: dict[str, dict[str, Any]]) -> None:
    assert fleet["Topology/taugrid-gpu-topology"] == {
        "apiVersion": KUEUE,
        "kind": "Topology",
        "metadata": meta_of("taugrid-gpu-topology", "-2"),
        "spec": {
            "levels": [
                {"nodeLabel": "tau.azure.com/site"},
                {"nodeLabel": "tau.azure.com/network-domain"},
                {"nodeLabel": "tau.azure.com/accelerator-domain"},
                {"nodeLabel": "kubernetes.io/hostname"},
            ]
        },
    }


def test_r23_cpu_flavor_is_not_tas(fleet: dict[str, dict[str, Any]]) -> None:
    assert fleet["ResourceFlavor/taugrid-default-cpu"] == {
        "apiVersion": KUEUE,
        "kind": "ResourceFlavor",
        "metadata": meta_of("taugrid-default-cpu", "-1"),
        "spec": {},
    }


@pytest.mark.parametrize(("gpu_class", "slots"), [("h200-141gb", "1"), ("a100-80gb", "1")])
def test_r24_gpu_flavor_per_class(fleet: dict[str, dict[str, Any]], gpu_class: str, slots: str) -> None:
    """R24: that label only, the sku=gpu taint, the topology, and the Ready slot count."""
    name = f"taugrid-{gpu_class}"
    assert fleet[f"ResourceFlavor/{name}"] == {
        "apiVersion": KUEUE,
        "kind": "ResourceFlavor",
        "metadata": meta_of(name, "-1", annotations={"tau.azure.com/ready-torchrun-host-slots": slots}),
        "spec": {
            "nodeLabels": {"tau.azure.com/gpu-class": gpu_class},
            "nodeTaints": [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}],
            "topologyName": "taugrid-gpu-topology",
        },
    }


def test_r25_cluster_queue(fleet: dict[str, dict[str, Any]]) -> None:
    """R25: strategy, preemption, tenant selector, covered order, CPU flavor first, then by name."""
    assert fleet["ClusterQueue/taugrid"] == {
        "apiVersion": KUEUE,
        "kind": "ClusterQueue",
        "metadata": meta_of("taugrid", "0"),
        "spec": {
            "namespaceSelector": {
                "matchExpressions": [
                    {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-a", "team-b"]}
                ]
            },
            "preemption": {"withinClusterQueue": "LowerPriority"},
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [
                {
                    "coveredResources": ["cpu", "memory", "nvidia.com/gpu", SLOT],
                    "flavors": [
                        _flavor_quota("taugrid-default-cpu", "0", "0"),
                        _flavor_quota("taugrid-a100-80gb", "1", "1"),
                        _flavor_quota("taugrid-h200-141gb", "16", "1"),
                    ],
                }
            ],
        },
    }


@pytest.mark.parametrize("namespace", ["team-a", "team-b"])
def test_r28_local_queue_per_tenant(fleet: dict[str, dict[str, Any]], namespace: str) -> None:
    assert fleet[f"LocalQueue/{namespace}/taugrid"] == {
        "apiVersion": KUEUE,
        "kind": "LocalQueue",
        "metadata": meta_of("taugrid", "1", namespace=namespace),
        "spec": {"clusterQueue": "taugrid"},
    }


def test_r25_r28_custom_queue_names(tmp_path: Path) -> None:
    """R25/R28: a custom ClusterQueue name is used by the queue and every LocalQueue."""
    project = write_project(tmp_path, tenants=(), clusterQueue="gpu-cq")
    # write_project lists tenants from a tuple of namespaces; add one with a custom LocalQueue.
    text = project.read_text().replace("tenants: []", "tenants:\n  - {namespace: team-x, localQueue: xq}")
    project.write_text(text)
    run_build(project)
    objs = objects(tmp_path)
    assert objs["LocalQueue/team-x/xq"] == {
        "apiVersion": KUEUE,
        "kind": "LocalQueue",
        "metadata": meta_of("xq", "1", namespace="team-x"),
        "spec": {"clusterQueue": "gpu-cq"},
    }
    assert objs["ClusterQueue/gpu-cq"]["spec"]["namespaceSelector"] == {
        "matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-x"]}]
    }


def test_r29_gpu_node_label_manifest(fleet: dict[str, dict[str, Any]]) -> None:
    """R29: only name, the resolved labels (no hostname) and the §4 annotations."""
    assert fleet["Node/h200-0"] == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "h200-0",
            "labels": {
                **MANAGED,
                "kueue.azure.com/gpu-series": "nd-h200-v5",
                "tau.azure.com/accelerator-domain": "rack-7",
                "tau.azure.com/gpu-class": "h200-141gb",
                "tau.azure.com/infiniband": "true",
                "tau.azure.com/network-domain": "ib-3",
                "tau.azure.com/site": "eastus",
            },
            "annotations": NODE_ANNOTATIONS,
        },
    }


def test_r29_not_ready_node_is_labelled_too(fleet: dict[str, dict[str, Any]]) -> None:
    assert fleet["Node/h200-1"]["metadata"]["labels"]["tau.azure.com/gpu-class"] == "h200-141gb"


def test_r29_node_without_fabric(fleet: dict[str, dict[str, Any]]) -> None:
    assert fleet["Node/a100-0"] == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "a100-0",
            "labels": {
                **MANAGED,
                "kueue.azure.com/gpu-series": "nc-a100-v4",
                "tau.azure.com/accelerator-domain": "singleton-a100-0",
                "tau.azure.com/gpu-class": "a100-80gb",
                "tau.azure.com/network-domain": "singleton-a100-0",
                "tau.azure.com/site": "eastus",
            },
            "annotations": NODE_ANNOTATIONS,
        },
    }


def test_r29_rule_labelled_cpu_node(fleet: dict[str, dict[str, Any]]) -> None:
    """R17/R29: a CPU node a rule matches gets the rule labels only; an unmatched node gets nothing."""
    assert fleet["Node/sys-0"] == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "sys-0",
            "labels": {**MANAGED, "node-pool.example.com/role": "system"},
            "annotations": NODE_ANNOTATIONS,
        },
    }
    assert "Node/cpu-0" not in fleet
