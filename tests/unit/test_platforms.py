"""Fleets as they really are (SPEC §13, R36-R41): NodeLists of EKS, GKE, GB200, on-prem and AKS
Windows nodes, written from the providers' documentation as `kubectl get nodes -o yaml` prints
them (managedFields, images, conditions, annotations), in tests/data/platforms/."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.explain.node import explain_node
from taugen.context.session import open_project
from taugen.load.inventory import load_inventory
from tests.support.unit import labels_by_node, objects, problems_of, resolve_project, run_build, write_project

DATA = Path(__file__).resolve().parents[1] / "data" / "platforms"
PRESENT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
S, N, A, IB, CLASS = (
    "tau.azure.com/site",
    "tau.azure.com/network-domain",
    "tau.azure.com/accelerator-domain",
    "tau.azure.com/infiniband",
    "tau.azure.com/gpu-class",
)


def nodelist(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DATA / name).read_text())
    return data


def rules(*entries: tuple[dict[str, Any], str]) -> dict[str, Any]:
    return {"extraNodeLabelRules": [{"match": m, "labels": {CLASS: c}} for m, c in entries]}


def product(*values: str) -> dict[str, Any]:
    return {"labels": {"nvidia.com/gpu.product": list(values)}}


ONPREM_RULES = rules(
    (product("Tesla-T4"), "t4-16gb"),
    (product("Tesla-T4-SHARED"), "t4-16gb-shared"),
    (product("Tesla-V100-SXM2-16GB"), "v100-16gb"),
)
EKS_RULES = rules(({"vmSizes": ["p4d.24xlarge"]}, "a100-40gb"))
GKE_RULES = rules(
    ({"vmSizes": ["a3-megagpu-8g"]}, "h100-80gb"),
    ({"vmSizes": ["a4-highgpu-8g"]}, "b200-180gb"),
)


def messages(result_or_problems: Any) -> list[tuple[str, str]]:
    found = getattr(result_or_problems, "warnings", result_or_problems)
    return [(p.rule, p.message) for p in found]


def flavors(tmp_path: Path) -> dict[str, Any]:
    return {k: v for k, v in objects(tmp_path).items() if k.startswith("ResourceFlavor/")}


def queue_flavors(tmp_path: Path) -> dict[str, dict[str, str]]:
    queue = next(v for k, v in objects(tmp_path).items() if k.startswith("ClusterQueue/"))
    groups = queue["spec"]["resourceGroups"][0]["flavors"]
    return {f["name"]: {r["name"]: r["nominalQuota"] for r in f["resources"]} for f in groups}


NEW_HISTORY = (
    "R26",
    "taugen.lock is missing and out/c1 holds no queue: cluster c1 starts a new GPU quota history",
)


# --- R36: rules match node labels --------------------------------------------------------------


def test_r36_onprem_nodes_without_instance_type_get_their_class_from_gpu_product(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, nodelist("onprem-t4-v100.yaml"), ONPREM_RULES, site="dc-1", gpuNodeTaints=[]
    )
    result = run_build(project)
    assert messages(result) == [NEW_HISTORY]
    assert labels_by_node(resolve_project(project)) == {
        "dgx1-v100-02": {
            CLASS: "v100-16gb",
            A: "singleton-dgx1-v100-02",
            N: "singleton-dgx1-v100-02",
            S: "dc-1",
        },
        "gpu-t4-01": {CLASS: "t4-16gb", A: "singleton-gpu-t4-01", N: "singleton-gpu-t4-01", S: "dc-1"},
        "k8s-cp-01": {},
    }
    assert flavors(tmp_path)["ResourceFlavor/taugrid-t4-16gb"]["spec"] == {
        "nodeLabels": {CLASS: "t4-16gb"},  # R39: gpuNodeTaints [] — these nodes carry no taint
        "topologyName": "taugrid-gpu-topology",
    }


def test_r36_a_rule_with_vm_sizes_and_labels_needs_both(tmp_path: Path) -> None:
    both = rules(
        ({"vmSizes": ["p4d.24xlarge"], "labels": {"karpenter.sh/nodepool": ["gpu-training"]}}, "a100-40gb")
    )
    inv = nodelist("eks-p4d.yaml")
    inv["items"][1]["metadata"]["labels"]["karpenter.sh/nodepool"] = "gpu-inference"
    project = write_project(tmp_path, inv, both, topologyLabels="eks", gpuNodeTaints=[PRESENT])
    problems = problems_of(lambda: resolve_project(project))
    assert messages(problems) == [
        (
            "R4",
            "node ip-10-0-65-18.us-west-2.compute.internal (vmSize p4d.24xlarge) has 8 nvidia.com/gpu "
            "but no rule gives it a tau.azure.com/gpu-class",
        )
    ]


def test_r36_r4_hint_offers_the_gpu_product_matcher_for_a_node_without_vm_size(tmp_path: Path) -> None:
    project = write_project(tmp_path, nodelist("onprem-t4-v100.yaml"), site="dc-1")
    problems = problems_of(lambda: resolve_project(project))
    assert [(p.rule, p.line, p.message, p.hint) for p in problems] == [
        (
            "R4",
            28,
            "node gpu-t4-01 (no vmSize) has 2 nvidia.com/gpu but no rule gives it a tau.azure.com/gpu-class",
            "add an extraNodeLabelRules entry `match: {labels: {nvidia.com/gpu.product: [Tesla-T4]}}` "
            "with a tau.azure.com/gpu-class label",
        ),
        (
            "R4",
            156,
            "node dgx1-v100-02 (no vmSize) has 8 nvidia.com/gpu but no rule gives it a "
            "tau.azure.com/gpu-class",
            "add an extraNodeLabelRules entry "
            "`match: {labels: {nvidia.com/gpu.product: [Tesla-V100-SXM2-16GB]}}` "
            "with a tau.azure.com/gpu-class label",
        ),
    ]


def test_r36_a_rule_without_any_matcher_is_refused(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, rules_doc={"extraNodeLabelRules": [{"match": {}, "labels": {CLASS: "x"}}]}
    )
    problems = problems_of(lambda: resolve_project(project))
    assert [(p.rule, p.line, p.col, p.message) for p in problems] == [
        ("R1", 2, 10, "extraNodeLabelRules.0.match: a rule needs a matcher: vmSizes or labels")
    ]


# --- R37: topology sources ---------------------------------------------------------------------


def test_r37_eks_preset_reads_the_network_node_layers(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, nodelist("eks-p4d.yaml"), EKS_RULES, topologyLabels="eks", gpuNodeTaints=[PRESENT]
    )
    result = run_build(project)
    assert messages(result) == [NEW_HISTORY]
    gpu = {CLASS: "a100-40gb", N: "nn-5f0c7e9a1d3b24c68", S: "us-west-2"}
    assert labels_by_node(resolve_project(project)) == {
        "ip-10-0-12-200.us-west-2.compute.internal": {},
        "ip-10-0-64-17.us-west-2.compute.internal": {
            **gpu,
            A: "singleton-ip-10-0-64-17.us-west-2.compute.internal",
        },
        "ip-10-0-65-18.us-west-2.compute.internal": {
            **gpu,
            A: "singleton-ip-10-0-65-18.us-west-2.compute.internal",
        },
    }
    assert flavors(tmp_path)["ResourceFlavor/taugrid-a100-40gb"]["spec"]["nodeTaints"] == [PRESENT]  # R39
    assert queue_flavors(tmp_path)["taugrid-a100-40gb"]["nvidia.com/gpu"] == "16"


def test_r37_gke_preset_reads_the_gce_topology_labels(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, nodelist("gke-a3-a4.yaml"), GKE_RULES, topologyLabels="gke", gpuNodeTaints=[PRESENT]
    )
    assert messages(run_build(project)) == [NEW_HISTORY]
    assert labels_by_node(resolve_project(project)) == {
        "gke-ml-a3mega-pool-5c1e2b7d-0": {
            CLASS: "h100-80gb",
            N: "sb-4e2d91",
            A: "h-1a9f0c3e",
            S: "us-central1",
        },
        "gke-ml-a3mega-pool-5c1e2b7d-1": {
            CLASS: "h100-80gb",
            N: "sb-4e2d91",
            A: "h-7c3b2d10",
            S: "us-central1",
        },
        "gke-ml-a4-pool-9d0a3f61-2": {CLASS: "b200-180gb", N: "sb-8a07c5", A: "h-2e6f4a91", S: "us-central1"},
        "gke-ml-a4-pool-9d0a3f61-3": {CLASS: "b200-180gb", N: "sb-8a07c5", A: "h-5b8d1e72", S: "us-central1"},
    }


GB200_RULES = rules((product("NVIDIA-GB200"), "gb200-186gb"))
CLIQUE = "a3f5e6c1-2b4d-4e8f-9a7b-1c2d3e4f5a6b"


def test_r37_nvidia_preset_makes_the_gpu_clique_the_nvlink_domain(tmp_path: Path) -> None:
    project = write_project(
        tmp_path,
        nodelist("gb200-nvl72.yaml"),
        GB200_RULES,
        site="dc-1",
        topologyLabels="nvidia",
        gpuNodeTaints=[],
    )
    assert messages(run_build(project)) == [NEW_HISTORY]
    gpu = {CLASS: "gb200-186gb", N: "spine-a", S: "dc-1"}
    assert labels_by_node(resolve_project(project)) == {
        "gb200-rack1-tray01": {**gpu, A: f"{CLIQUE}.32766"},
        "gb200-rack1-tray02": {**gpu, A: f"{CLIQUE}.32766"},
        "gb200-rack1-tray03": {**gpu, A: f"{CLIQUE}.32767"},
        "gb200-rack1-tray04": {**gpu, A: f"{CLIQUE}.32767"},
    }


def test_r37_explicit_keys_the_first_a_node_carries_wins_and_r16_still_checks(tmp_path: Path) -> None:
    inv = nodelist("gb200-nvl72.yaml")
    inv["items"][3]["metadata"]["labels"]["network.topology.nvidia.com/spine"] = "spine-b"
    topology = {
        "networkDomain": ["network.topology.nvidia.com/spine", "network.topology.nvidia.com/leaf"],
        "acceleratorDomain": ["nvidia.com/gpu.clique"],
    }
    project = write_project(
        tmp_path, inv, GB200_RULES, site="dc-1", topologyLabels=topology, gpuNodeTaints=[]
    )
    problems = problems_of(lambda: resolve_project(project))
    assert [(p.rule, p.message, p.hint) for p in problems] == [
        (
            "R16",
            f"accelerator domain '{CLIQUE}.32767' is split across 2 network domains or sites "
            "(dc-1/spine-a: gb200-rack1-tray03; dc-1/spine-b: gb200-rack1-tray04)",
            "an NVLink island lies in one fabric of one site: fix the nodes' "
            "network.topology.nvidia.com/spine "
            "or nvidia.com/gpu.clique labels",
        )
    ]


def test_r37_explain_node_names_the_label_a_domain_came_from(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, nodelist("eks-p4d.yaml"), EKS_RULES, topologyLabels="eks", gpuNodeTaints=[PRESENT]
    )
    run_build(project)
    session = open_project(project)
    cluster = session.loaded.project.clusters[0]
    view = session.cluster(cluster)
    found = explain_node(view, "ip-10-0-64-17.us-west-2.compute.internal")
    origins = {o.key: (o.source, o.origin, o.rule) for o in found.labels}
    assert origins[N] == ("provider label", "topology.k8s.aws/network-node-layer-3", "R12")
    assert origins[A] == (
        "singleton",
        "the node has no nvidia.com/gpu.clique label, and the same GPU model never implies "
        "a shared NVLink island",
        "R14",
    )
    assert found.taints == ("nvidia.com/gpu=present:NoSchedule",)


# --- R38: shared GPUs --------------------------------------------------------------------------


def test_r38_time_sliced_gpus_count_what_is_advertised_and_say_so_once(tmp_path: Path) -> None:
    inv = nodelist("onprem-t4-v100-shared.yaml")
    project = write_project(tmp_path, inv, ONPREM_RULES, site="dc-1", gpuNodeTaints=[])
    result = run_build(project)
    assert [(p.rule, p.line, p.col, p.message) for p in result.warnings][1:] == [
        (
            "R38",
            29,
            32,
            "gpu-class t4-16gb-shared: GPUs are shared (x4, nvidia.com/gpu.replicas): its GPU quota counts "
            "the 8 GPUs the nodes advertise, 2 physical",
        )
    ]
    assert queue_flavors(tmp_path)["taugrid-t4-16gb-shared"]["nvidia.com/gpu"] == "8"
    lock = json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    assert (lock["gpuQuota"], lock["gpuSharing"]) == (
        {"t4-16gb-shared": 8, "v100-16gb": 8},
        {"t4-16gb-shared": 4},
    )


def test_r38_a_class_mixing_shared_and_whole_gpus_is_an_error(tmp_path: Path) -> None:
    one_class = rules((product("Tesla-T4-SHARED", "Tesla-V100-SXM2-16GB"), "mixed"))
    project = write_project(tmp_path, nodelist("onprem-t4-v100-shared.yaml"), one_class, site="dc-1")
    problems = problems_of(lambda: resolve_project(project))
    assert messages(problems) == [
        (
            "R38",
            "gpu-class mixed mixes shared and whole GPUs (whole GPUs: dgx1-v100-02; shared x4: gpu-t4-01): "
            "one flavor cannot mean two units",
        )
    ]


def test_r38_a_change_of_sharing_factor_is_refused_without_allow_quota_decrease(tmp_path: Path) -> None:
    same_class = rules(
        (product("Tesla-T4", "Tesla-T4-SHARED"), "t4-16gb"), (product("Tesla-V100-SXM2-16GB"), "v100")
    )
    project = write_project(
        tmp_path, nodelist("onprem-t4-v100-shared.yaml"), same_class, site="dc-1", gpuNodeTaints=[]
    )
    run_build(project)
    (tmp_path / "inventory.yaml").write_text(yaml.safe_dump(nodelist("onprem-t4-v100.yaml")))
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.message, p.hint) for p in problems] == [
        (
            "R38",
            "gpu-class t4-16gb was shared x4 and is now whole GPUs in cluster c1: "
            "its high-water mark 8 is in the old unit",
            "pass --allow-quota-decrease to start its GPU quota again in the new unit, "
            "or restore the sharing",
        )
    ]
    run_build(project, allow_quota_decrease=True)
    lock = json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    assert lock["gpuQuota"] == {"t4-16gb": 2, "v100": 8}
    assert "gpuSharing" not in lock  # only shared classes are recorded


# --- R39: GPU node taints ----------------------------------------------------------------------


def test_r39_gpu_nodes_are_compared_with_the_clusters_gpu_node_taints(tmp_path: Path) -> None:
    project = write_project(tmp_path, nodelist("eks-p4d.yaml"), EKS_RULES, topologyLabels="eks")
    result = run_build(project)
    node = "ip-10-0-64-17.us-west-2.compute.internal"
    assert messages(result)[1:3] == [
        (
            "R39",
            f"GPU node {node} lacks the taint sku=gpu:NoSchedule (the cluster's gpuNodeTaints): "
            "pods that do not ask for a GPU may fill it",
        ),
        (
            "R39",
            f"GPU node {node} carries the taint nvidia.com/gpu=present:NoSchedule, which work rendered by "
            "taugen does not tolerate: it never runs there",
        ),
    ]
    assert len(result.warnings) == 5  # both GPU nodes, both warnings; the system node is not a GPU node


KEY_ONLY = {"key": "nvidia.com/gpu", "effect": "NoSchedule"}  # the EKS scaffold's (issue 34)


def _valueless(inv: dict[str, Any]) -> dict[str, Any]:
    """The NodeList with its nvidia.com/gpu taints carried without a value, as many EKS node groups do."""
    bare = copy.deepcopy(inv)
    for item in bare["items"]:
        for taint in item["spec"].get("taints", []):
            taint.pop("value", None)
    return bare


@pytest.mark.parametrize("valueless", [False, True])
def test_r39_a_taint_without_a_value_matches_its_key_with_any_value_or_none(
    tmp_path: Path, valueless: bool
) -> None:
    """Issue 34 (5): `{key: nvidia.com/gpu, effect: NoSchedule}` matches nodes tainted
    `nvidia.com/gpu=present:NoSchedule` and `nvidia.com/gpu:NoSchedule` alike: no R39 warning,
    and the flavor names the taint without a value (render tolerates it with Exists)."""
    inv = _valueless(nodelist("eks-p4d.yaml")) if valueless else nodelist("eks-p4d.yaml")
    project = write_project(tmp_path, inv, EKS_RULES, topologyLabels="eks", gpuNodeTaints=[KEY_ONLY])
    result = run_build(project)
    assert messages(result) == [NEW_HISTORY]
    assert flavors(tmp_path)["ResourceFlavor/taugrid-a100-40gb"]["spec"]["nodeTaints"] == [
        {"key": "nvidia.com/gpu", "effect": "NoSchedule"}
    ]


def test_r39_a_taint_with_a_value_does_not_match_a_node_tainted_without_one(tmp_path: Path) -> None:
    """The issue's case: gpuNodeTaints `value: present` on nodes tainted without a value is a
    warning of both kinds per GPU node (its pods tolerate `Equal present`, which the node's
    taint is not)."""
    project = write_project(
        tmp_path,
        _valueless(nodelist("eks-p4d.yaml")),
        EKS_RULES,
        topologyLabels="eks",
        gpuNodeTaints=[PRESENT],
    )
    node = "ip-10-0-64-17.us-west-2.compute.internal"
    found = messages(run_build(project))
    assert found[1:3] == [
        (
            "R39",
            f"GPU node {node} lacks the taint nvidia.com/gpu=present:NoSchedule "
            "(the cluster's gpuNodeTaints): pods that do not ask for a GPU may fill it",
        ),
        (
            "R39",
            f"GPU node {node} carries the taint nvidia.com/gpu:NoSchedule, which work rendered by "
            "taugen does not tolerate: it never runs there",
        ),
    ]
    assert len(found) == 5


def test_r39_a_native_node_without_taints_is_not_compared(tmp_path: Path) -> None:
    assert messages(run_build(write_project(tmp_path))) == [NEW_HISTORY]


# --- R40: GPUs taugen does not count ------------------------------------------------------------


def test_r40_windows_directx_and_unallocatable_gpus_are_warnings(tmp_path: Path) -> None:
    nc6 = rules(({"vmSizes": ["Standard_NC6s_v3"]}, "v100-16gb"))
    project = write_project(tmp_path, nodelist("aks-windows-t4.yaml"), nc6)
    result = run_build(project)
    assert messages(result)[1:] == [
        (
            "R40",
            "node akswgpu000000 advertises microsoft.com/directx 1, a GPU-like resource "
            "taugen does not count "
            "(only nvidia.com/gpu gets a flavor and quota)",
        ),
        (
            "R40",
            "node aks-nc6sv3-39173152-vmss000001 has nvidia.com/gpu capacity 1 but none "
            "allocatable: it counts 0 GPUs",
        ),
    ]
    assert queue_flavors(tmp_path)["taugrid-v100-16gb"] == {  # R40: no GPU quota, so no slot
        "cpu": "100k",
        "memory": "100Ti",
        "nvidia.com/gpu": "0",
        "tau.azure.com/torchrun-host-slot": "0",
    }


# --- R41: NodeList sites and pasted describe text ------------------------------------------------


def _without(inv: dict[str, Any], *keys: str) -> dict[str, Any]:
    inv = copy.deepcopy(inv)
    for item in inv["items"]:
        for key in keys:
            item["metadata"]["labels"].pop(key, None)
    return inv


def test_r41_the_legacy_region_label_then_the_clusters_site(tmp_path: Path) -> None:
    legacy = _without(nodelist("eks-p4d.yaml"), "topology.kubernetes.io/region")
    project = write_project(tmp_path / "a", legacy, EKS_RULES, topologyLabels="eks", gpuNodeTaints=[PRESENT])
    assert {n.labels.get(S) for n in resolve_project(project).nodes} == {None, "us-west-2"}
    bare = _without(legacy, "failure-domain.beta.kubernetes.io/region")
    project = write_project(
        tmp_path / "b", bare, EKS_RULES, topologyLabels="eks", gpuNodeTaints=[PRESENT], site="dc-9"
    )
    assert {n.labels.get(S) for n in resolve_project(project).nodes} == {None, "dc-9"}


def test_r41_a_nodelist_without_any_site_hints_at_the_cluster(tmp_path: Path) -> None:
    project = write_project(tmp_path, nodelist("onprem-t4-v100.yaml"), ONPREM_RULES)
    problems = problems_of(lambda: resolve_project(project))
    assert (problems[0].rule, problems[0].message, problems[0].hint) == (
        "R11",
        "node gpu-t4-01 has no site and neither the inventory nor the cluster sets a default site",
        "label the node topology.kubernetes.io/region, or set `site:` on the cluster in taugen.yaml",
    )


def test_r41_pasted_kubectl_describe_text_is_refused(tmp_path: Path) -> None:
    problems = problems_of(lambda: load_inventory(DATA / "describe-node.txt"))
    assert [(p.rule, p.line, p.col, p.message, p.hint) for p in problems] == [
        (
            "R41",
            1,
            1,
            "this is `kubectl describe node` text, not a node list",
            "export with `kubectl get nodes -o yaml` (the YAML of the Node objects, not `kubectl describe`)",
        )
    ]


def test_r31_a_nodelist_is_dated_by_its_latest_heartbeat(tmp_path: Path) -> None:
    inventory = load_inventory(DATA / "eks-p4d.yaml")
    assert (inventory.observed_at_pos.line, inventory.observed_at_loc) == (
        125,
        ("items", 0, "status", "conditions", 3, "lastHeartbeatTime"),
    )


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.yaml")))
def test_r36_r41_every_platform_nodelist_loads_with_taints_and_capacity(name: str) -> None:
    inventory = load_inventory(DATA / name)
    assert all(n.taints is not None and n.capacity for n in inventory.nodes)


# --- R36: `inventory import` never writes a node it cannot describe ------------------------------

EMPTY = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "ClusterInventory",
    "metadata": {"name": "dc-1"},
    "observedAt": "2026-01-01T00:00:00Z",
    "site": "dc-1",
    "nodes": [],
}


def test_r36_import_fills_an_empty_inventory_with_what_rules_and_topology_read(tmp_path: Path) -> None:
    from taugen.commands.inventory.refresh import import_nodes

    target = tmp_path / "inventory.yaml"
    target.write_text(yaml.safe_dump(EMPTY, sort_keys=False))
    result = import_nodes(DATA / "gb200-nvl72.yaml", target, dry_run=False)
    assert (result.written, result.changes.added[0]) == (True, "gb200-rack1-tray01")
    first = yaml.safe_load(target.read_text())["nodes"][0]
    assert first == {
        "name": "gb200-rack1-tray01",
        "allocatable": {
            "cpu": "144",
            "ephemeral-storage": "3337351431775",
            "hugepages-2Mi": "0",
            "memory": "1744126420Ki",
            "nvidia.com/gpu": "4",
            "pods": "110",
        },
        "labels": {
            "network.topology.nvidia.com/leaf": "leaf-1",
            "network.topology.nvidia.com/spine": "spine-a",
            "nvidia.com/cuda.driver-version.full": "550.127.05",
            "nvidia.com/cuda.driver.major": "550",
            "nvidia.com/cuda.runtime-version.major": "12",
            "nvidia.com/gfd.timestamp": "1740070931",
            "nvidia.com/gpu.clique": f"{CLIQUE}.32766",
            "nvidia.com/gpu.compute.major": "10",
            "nvidia.com/gpu.count": "4",
            "nvidia.com/gpu.family": "blackwell",
            "nvidia.com/gpu.machine": "NVIDIA-GB200-NVL",
            "nvidia.com/gpu.memory": "189471",
            "nvidia.com/gpu.present": "true",
            "nvidia.com/gpu.product": "NVIDIA-GB200",
            "nvidia.com/gpu.replicas": "1",
            "nvidia.com/gpu.sharing-strategy": "none",
            "nvidia.com/mig.capable": "false",
        },
    }
    project = write_project(
        tmp_path / "p", yaml.safe_load(target.read_text()), GB200_RULES, topologyLabels="nvidia"
    )
    assert {n.labels[A] for n in resolve_project(project).nodes} == {f"{CLIQUE}.32766", f"{CLIQUE}.32767"}


def test_r36_import_refuses_a_gpu_node_it_cannot_describe(tmp_path: Path) -> None:
    from taugen.commands.inventory.refresh import import_nodes

    target = tmp_path / "inventory.yaml"
    target.write_text(yaml.safe_dump(EMPTY, sort_keys=False))
    live = _without(nodelist("gb200-nvl72.yaml"), "nvidia.com/gpu.product", "nvidia.com/gpu.machine")
    (tmp_path / "nodes.yaml").write_text(yaml.safe_dump(live))
    problems = problems_of(lambda: import_nodes(tmp_path / "nodes.yaml", target, dry_run=False))
    assert messages(problems)[0] == (
        "R36",
        "node gb200-rack1-tray01 has 4 nvidia.com/gpu but neither an instance-type label nor "
        "nvidia.com/gpu.product or nvidia.com/gpu.machine: no rule could give it a gpu-class",
    )
    assert len(problems) == 4
    assert yaml.safe_load(target.read_text()) == EMPTY  # nothing written
