"""Test helper: feed a case recorded from Kueue v0.19.2's own TAS tests
(tests/data/tas-upstream/*.yaml, format in its README.md) to the placement core, and turn
the core's answer back into the case's `expected` shape."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.core.quantity import Quantity
from taugen.engines.placement.request import Mode, PodRequest, SliceLayer
from taugen.engines.placement.tas import Assignment, Placed, find_assignment
from taugen.engines.placement.tree import (
    DomainPath,
    FilterTaint,
    FilterToleration,
    TasNode,
    TasTree,
    build_tree,
)
from taugen.models.node_filters import NodeRequirement
from taugen.schedulers.kueue.units import units
from tests.support.tas_replacement import find_replacement

FOLDER = Path(__file__).resolve().parents[1] / "data" / "tas-upstream"
TOPOLOGY = "default"
TERMINAL = ("Failed", "Succeeded")  # Kueue counts no usage for a finished pod
Free = dict[DomainPath, dict[str, int]]


PLACEMENT = ("find-topology-assignments.yaml", "multi-layer-replacement.yaml")  # tas_cache_test.go


def load_cases() -> list[dict[str, Any]]:
    paths = [FOLDER / name for name in PLACEMENT]
    return [doc for path in paths for doc in yaml.safe_load_all(path.read_text()) if doc]


def _amount(name: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # the tests' int64 requests: cpu in millicores, others in base units
    return units(name, Quantity.parse(str(value)))


def _resources(raw: Mapping[str, Any]) -> dict[str, int]:
    return {name: _amount(name, value) for name, value in raw.items()}


def _quantities(raw: Mapping[str, Any]) -> dict[str, int]:
    return {name: units(name, Quantity.parse(str(value))) for name, value in raw.items()}


def _in_tree(node: Mapping[str, Any], flavor: Mapping[str, str], levels: tuple[str, ...]) -> bool:
    """Kueue's flavor tree: Ready, schedulable nodes with the flavor's labels and every level's."""
    if not node["ready"] or node.get("unschedulable"):
        return False
    labels = node["labels"]
    return all(labels.get(k) == v for k, v in flavor.items()) and all(lv in labels for lv in levels)


def _toleration(raw: Mapping[str, Any]) -> FilterToleration:
    exists = raw.get("Operator") == "Exists"
    return FilterToleration(
        raw.get("Key", ""), None if exists else raw.get("Value", ""), raw.get("Effect") or None
    )


def _free(case: dict[str, Any], used: Mapping[str, Mapping[str, int]]) -> tuple[list[TasNode], Free]:
    levels, flavor = tuple(case["levels"]), case.get("flavorNodeLabels") or {}
    nodes: list[TasNode] = []
    free: Free = {}
    for raw in case["nodes"]:
        if not _in_tree(raw, flavor, levels):
            continue
        path = tuple(raw["labels"][lv] for lv in levels)
        taints = tuple(FilterTaint(t["key"], t.get("value", ""), t["effect"]) for t in raw.get("taints", []))
        nodes.append(TasNode(raw["name"], path, taints, frozenset(raw["labels"].items())))
        leaf = free.setdefault(path, {})
        usage = used.get(raw["name"], {})
        for name, amount in _quantities(raw["allocatable"]).items():
            leaf[name] = leaf.get(name, 0) + amount - usage.get(name, 0)
    return nodes, free


def _used(case: dict[str, Any]) -> dict[str, dict[str, int]]:
    used: dict[str, dict[str, int]] = {}
    for pod in case.get("pods") or []:
        if pod["node"] is None or pod["phase"] in TERMINAL:
            continue
        usage = used.setdefault(pod["node"], {"pods": 0})
        usage["pods"] += 1
        for name, amount in _quantities(pod["requests"]).items():
            usage[name] = usage.get(name, 0) + amount
    return used


def _request(podset: Mapping[str, Any], levels: list[str], leader: Mapping[str, Any] | None) -> PodRequest:
    """Kueue's PodSetTopologyRequest in the core's terms: an implied request and a slice-only
    one are unconstrained (the lowest level, and the highest)."""
    topology = podset["topology"]
    mode: Mode = "required" if "required" in topology else "unconstrained"
    mode = "preferred" if "preferred" in topology else mode
    level = None if mode == "unconstrained" else topology[mode]
    layers = tuple(SliceLayer(layer["level"], layer["size"]) for layer in topology.get("sliceLayers") or [])
    if "sliceRequired" in topology:
        layers = (SliceLayer(topology["sliceRequired"], topology.get("sliceSize", 0)),)
    if mode == "unconstrained" and layers:  # Kueue levelKey: a slice request, the highest level
        level = levels[0]
    tolerations = tuple(_toleration(t) for t in podset.get("tolerations") or [])
    selector = tuple(sorted((podset.get("nodeSelector") or {}).items()))
    lead = None if leader is None else _resources(leader["perPod"])
    per_pod = _resources(podset["perPod"])
    affinity = _required_affinity(podset)
    return PodRequest(podset["count"], per_pod, mode, level, tolerations, selector, layers, lead, affinity)


def _required_affinity(podset: Mapping[str, Any]) -> tuple[tuple[NodeRequirement, ...], ...]:
    """MakeNodeSelectorTerms().Term(key, operator, values...): one requirement per term."""
    required = (podset.get("nodeAffinity") or {}).get("RequiredDuringSchedulingIgnoredDuringExecution")
    terms = (required or {}).get("NodeSelectorTerms", {}).get("terms", [])
    return tuple(
        (NodeRequirement.model_validate({"key": key, "operator": op, "values": values}),)
        for key, op, *values in terms
    )


def _groups(podsets: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Kueue's grouping: by podset-group-name, in the order a group first appears."""
    found: dict[str, list[dict[str, Any]]] = {}
    for index, podset in enumerate(podsets):
        found.setdefault(podset.get("group") or f"#{index}", []).append(podset)
    return list(found.values())


def _leader_and_workers(group: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Kueue's findLeaderAndWorkers: the second is the leader unless it has more pods."""
    if len(group) == 1:
        return None, group[0]
    workers, leader = group[0], group[1]
    return (workers, leader) if leader["count"] > workers["count"] else (leader, workers)


def run_case(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pod set's result, in the case's order, in the shape of its `expected`."""
    levels = list(case["levels"])
    host = levels[-1] == "kubernetes.io/hostname"
    nodes, base = _free(case, _used(case))
    tree = build_tree(TOPOLOGY, levels, nodes)
    found: dict[str, dict[str, Any]] = {}
    assumed: Free = {}
    if "replacement" in case or "workload" in case:
        return [_replacement(case, tree, base, levels, host)]
    for group in _groups(case["podSets"]):
        leader, workers = _leader_and_workers(group)
        free = {p: {r: v - assumed.get(p, {}).get(r, 0) for r, v in res.items()} for p, res in base.items()}
        request = _request(workers, levels, leader)
        result = find_assignment(tree, request, free)
        if not isinstance(result, Assignment):
            found.update({p["name"]: {"reason": result.reason} for p in group})
            break
        found[workers["name"]] = _shape(result.levels, result.domains, host)
        _assume(assumed, request.per_pod, result.domains)
        if leader is not None:
            found[leader["name"]] = _shape(result.levels, result.leader, host)
            _assume(assumed, request.leader or {}, result.leader)
    return [found.get(p["name"], {"assignment": None}) for p in case["podSets"]]


def _replacement(
    case: dict[str, Any], tree: TasTree, free: Free, levels: list[str], host: bool
) -> dict[str, Any]:
    """A node replacement case: one pod set admitted with an assignment and an unhealthy node."""
    (podset,) = case["podSets"]
    if "replacement" in case:
        admitted, unhealthy = case["replacement"]["assignment"], case["replacement"]["unhealthyNode"]
    else:
        admitted, unhealthy = (
            case["workload"]["admitted"]["assignment"],
            case["workload"]["unhealthyNodes"][0],
        )
    existing = [(d["values"][-1], d["count"]) for d in admitted["domains"]]
    result = find_replacement(tree, _request(podset, levels, None), existing, unhealthy, free)
    if not isinstance(result, Assignment):
        return {"reason": result.reason}
    return _shape(result.levels, result.domains, host)


def _assume(assumed: Free, per_pod: Mapping[str, int], placed: tuple[Placed, ...]) -> None:
    one = {**per_pod, "pods": per_pod.get("pods", 0) + 1}
    for domain in placed:
        usage = assumed.setdefault(domain.path, {})
        for name, amount in one.items():
            usage[name] = usage.get(name, 0) + amount * domain.count


def _shape(levels: tuple[str, ...], placed: tuple[Placed, ...], host: bool) -> dict[str, Any]:
    domains = [{"values": [p.path[-1]] if host else list(p.path), "count": p.count} for p in placed]
    return {"levels": list(levels), "domains": domains}


def expected(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [podset["expected"] for podset in case["podSets"]]
