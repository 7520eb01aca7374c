"""A scenario's objects for the real cluster (issue 31 item 5): the Nodes of a taugen inventory
and taugen's compiled Kueue objects, isolated so that many scenarios share one control plane.

Isolation: every cluster-scoped name (and every reference to one) and every namespace gets the
scenario's prefix, and each flavor that selects nodes also selects the scenario's label, which
only its own Nodes carry. The prefix is common to all of a scenario's names, so it keeps their
order (Kueue breaks ties by domain values)."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.realcluster.kube import Object

SCENARIO_LABEL = "simkueue.taugen.test/scenario"
HOSTNAME = "kubernetes.io/hostname"
SLOT = "tau.azure.com/torchrun-host-slot"
GPU = "nvidia.com/gpu"
KUBELET_PODS = "110"  # a kubelet's default maxPods: a real Node always reports `pods`
# what taugen writes that Kueue reads, in the order a GitOps sync applies it (sync waves)
KINDS = ("WorkloadPriorityClass", "Topology", "ResourceFlavor", "Cohort", "ClusterQueue", "LocalQueue")
CLUSTER_SCOPED = {"WorkloadPriorityClass", "Topology", "ResourceFlavor", "Cohort", "ClusterQueue"}


@dataclass(frozen=True)
class Isolation:
    scenario: str  # a DNS label: the Nodes' SCENARIO_LABEL value and every name's prefix

    def name(self, name: str) -> str:
        return f"{self.scenario}-{name}"

    def unprefixed(self, name: str) -> str:
        prefix = f"{self.scenario}-"
        assert name.startswith(prefix), f"{name} is not of scenario {self.scenario}"
        return name[len(prefix) :]


def tree_objects(folder: Path) -> list[Object]:
    """The compiled tree's objects Kueue reads, in KINDS order (the files' order within a kind)."""
    found = [
        doc
        for path in sorted(folder.glob("*.yaml"))
        if path.name != "kustomization.yaml"
        for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        if doc and doc.get("kind") in KINDS
    ]
    return sorted(found, key=lambda d: KINDS.index(d["kind"]))


def isolate(obj: Object, iso: Isolation) -> Object:
    """`obj` with the scenario's names, references, namespaces and node label."""
    out = copy.deepcopy(obj)
    meta, spec, kind = out["metadata"], out.get("spec") or {}, out["kind"]
    if kind in CLUSTER_SCOPED:
        meta["name"] = iso.name(meta["name"])
    if "namespace" in meta:
        meta["namespace"] = iso.name(meta["namespace"])
    if kind == "ResourceFlavor" and (spec.get("nodeLabels") or spec.get("topologyName")):
        spec["nodeLabels"] = {**spec.get("nodeLabels", {}), SCENARIO_LABEL: iso.scenario}
        if "topologyName" in spec:
            spec["topologyName"] = iso.name(spec["topologyName"])
    if kind == "ClusterQueue":
        _queue(spec, iso)
    if kind == "Cohort":  # R51: a group's Cohort holds quota of its flavors too
        _flavors(spec, iso)
    for key in ("clusterQueue", "parentName"):  # LocalQueue's queue, Cohort's parent
        if key in spec:
            spec[key] = iso.name(spec[key])
    return out


def _flavors(spec: dict[str, Any], iso: Isolation) -> None:
    for group in spec.get("resourceGroups", []):
        for flavor in group["flavors"]:
            flavor["name"] = iso.name(flavor["name"])


def _queue(spec: dict[str, Any], iso: Isolation) -> None:
    _flavors(spec, iso)
    if "cohortName" in spec:
        spec["cohortName"] = iso.name(spec["cohortName"])
    for expression in (spec.get("namespaceSelector") or {}).get("matchExpressions", []):
        if expression["key"] == "kubernetes.io/metadata.name":
            expression["values"] = [iso.name(v) for v in expression["values"]]


@dataclass(frozen=True)
class NodeSpec:
    """One Node as a kubelet and taugen's GitOps sync would leave it."""

    name: str
    ready: bool
    labels: Mapping[str, str]  # the inventory's (the cloud's) and the hostname
    taugen_labels: Mapping[str, str]  # what the tree's partial Node applies
    taints: tuple[Mapping[str, str], ...]
    allocatable: Mapping[str, str]
    capacity: Mapping[str, str]
    unschedulable: bool = False  # cordoned (spec.unschedulable)


def node_specs(nodes: Iterable[Any], tree: Path) -> list[NodeSpec]:
    """From taugen's resolved nodes (`ResolvedNode`: the inventory's facts) and the tree: a GPU
    node gets one torchrun-host-slot when the tree's NodeFeatureRule advertises it (what NFD
    would add), every node a kubelet's `pods` when the inventory lists none."""
    partial = _partial_nodes(tree)
    slots = (tree / "torchrun-host-slot.yaml").is_file()
    found = []
    for node in nodes:
        facts = node.facts
        allocatable = {r: str(q) for r, q in facts.allocatable.items()}
        if slots and int(float(allocatable.get(GPU, "0"))) > 0:
            allocatable.setdefault(SLOT, "1")
        allocatable.setdefault("pods", KUBELET_PODS)
        capacity = {**allocatable, **{r: str(q) for r, q in facts.capacity.items()}}
        labels = {HOSTNAME: facts.labels.get(HOSTNAME, facts.name), **facts.labels}
        taints = tuple(_taint(t) for t in facts.taints or ())
        found.append(
            NodeSpec(
                facts.name, node.ready, labels, partial.get(facts.name, {}), taints, allocatable, capacity
            )
        )
    return found


def _taint(taint: Any) -> dict[str, str]:
    found = {"key": taint.key, "effect": taint.effect}
    return found | ({"value": taint.value} if taint.value else {})


def _partial_nodes(tree: Path) -> dict[str, dict[str, str]]:
    return {
        doc["metadata"]["name"]: doc["metadata"].get("labels", {})
        for path in sorted((tree / "nodes").rglob("*.yaml"))
        if path.name != "kustomization.yaml"
        for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        if doc and doc.get("kind") == "Node"
    }


def node_object(node: NodeSpec, iso: Isolation) -> Object:
    """What the kubelet registers: its name and the cloud's labels (the hostname's value made
    unique with the prefix), and the scenario's label. No taugen label yet: a Node labelled
    managed-by taugen may not be created (G3), taugen's sync patches an existing one. A node
    without a hostname label (one of Kueue's test cases) gets none."""
    host = {HOSTNAME: iso.name(node.labels[HOSTNAME])} if HOSTNAME in node.labels else {}
    labels = {**node.labels, **host, SCENARIO_LABEL: iso.scenario}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": iso.name(node.name), "labels": labels}}


def node_status(node: NodeSpec) -> Object:
    """The kubelet's status: capacity, allocatable and Ready (True, or False when the
    inventory says not Ready)."""
    ready = {"type": "Ready", "status": "True" if node.ready else "False", "reason": "KubeletReady"}
    return {
        "status": {
            "capacity": dict(node.capacity),
            "allocatable": dict(node.allocatable),
            "conditions": [ready | {"message": "simkueue: no kubelet, status written by the test"}],
        }
    }


def node_patch(node: NodeSpec) -> Object:
    """taugen's labels applied on the registered Node, and its taints as the inventory lists
    them: the not-ready taint that admission added at create is gone (a node lifecycle
    controller would lift it once Ready; none runs here)."""
    spec: Object = {"taints": [dict(t) for t in node.taints]}
    return {
        "metadata": {"labels": dict(node.taugen_labels)},
        "spec": spec | ({"unschedulable": True} if node.unschedulable else {}),
    }
