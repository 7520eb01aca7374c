"""Test helper: feed a case recorded from Kueue v0.19.2's own TAS tests
(tests/data/tas-upstream/*.yaml, format in its README.md) to the placement core, and turn
the core's answer back into the case's `expected` shape."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.quantity import Quantity
from taugen.runs.units import units
from taugen.simulate.tas import Assignment, Mode, PodRequest, find_assignment
from taugen.simulate.tree import DomainPath, Taint, TasNode, Toleration, build_tree

FOLDER = Path(__file__).resolve().parents[1] / "data" / "tas-upstream"
TOPOLOGY = "default"
TERMINAL = ("Failed", "Succeeded")  # Kueue counts no usage for a finished pod


def load_cases() -> list[dict[str, Any]]:
    paths = sorted(FOLDER.glob("*.yaml"))
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


def _toleration(raw: Mapping[str, Any]) -> Toleration:
    exists = raw.get("Operator") == "Exists"
    return Toleration(raw.get("Key", ""), None if exists else raw.get("Value", ""), raw.get("Effect") or None)


def run_case(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pod set's result, in the case's order, in the shape of its `expected`."""
    levels = tuple(case["levels"])
    flavor = case.get("flavorNodeLabels") or {}
    host = levels[-1] == "kubernetes.io/hostname"
    used: dict[str, dict[str, int]] = {}
    for pod in case.get("pods") or []:
        if pod["node"] is None or pod["phase"] in TERMINAL:
            continue
        usage = used.setdefault(pod["node"], {"pods": 0})
        usage["pods"] += 1
        for name, amount in _quantities(pod["requests"]).items():
            usage[name] = usage.get(name, 0) + amount
    results: list[dict[str, Any]] = []
    assumed: dict[DomainPath, dict[str, int]] = {}
    for podset in case["podSets"]:
        selector = tuple(sorted((podset.get("nodeSelector") or {}).items()))
        nodes: list[TasNode] = []
        free: dict[DomainPath, dict[str, int]] = {}
        for raw in case["nodes"]:
            if not _in_tree(raw, flavor, levels):
                continue
            path = tuple(raw["labels"][lv] for lv in levels)
            taints = tuple(Taint(t["key"], t.get("value", ""), t["effect"]) for t in raw.get("taints", []))
            nodes.append(TasNode(raw["name"], path, taints, frozenset(raw["labels"].items())))
            leaf = free.setdefault(path, {})
            usage = used.get(raw["name"], {})
            for name, amount in _quantities(raw["allocatable"]).items():
                leaf[name] = leaf.get(name, 0) + amount - usage.get(name, 0)
        for path, usage in assumed.items():
            for name, amount in usage.items():
                free.setdefault(path, {})[name] = free.get(path, {}).get(name, 0) - amount
        tree = build_tree(TOPOLOGY, levels, nodes)
        topology = podset["topology"]
        mode: Mode = "required" if "required" in topology else "unconstrained"
        if "preferred" in topology:
            mode = "preferred"
        tolerations = tuple(_toleration(t) for t in podset.get("tolerations") or [])
        request = PodRequest(
            podset["count"], _resources(podset["perPod"]), mode, topology.get(mode), tolerations, selector
        )
        result = find_assignment(tree, request, free)
        if not isinstance(result, Assignment):
            results.append({"reason": result.reason})
            break
        per_pod = {**request.per_pod, "pods": request.per_pod.get("pods", 0) + 1}
        for placed in result.domains:
            usage = assumed.setdefault(placed.path, {})
            for name, amount in per_pod.items():
                usage[name] = usage.get(name, 0) + amount * placed.count
        results.append(_shape(result, host))
    results += [{"assignment": None}] * (len(case["podSets"]) - len(results))
    return results


def _shape(result: Assignment, host: bool) -> dict[str, Any]:
    domains = [{"values": [p.path[-1]] if host else list(p.path), "count": p.count} for p in result.domains]
    return {"levels": list(result.levels), "domains": domains}


def expected(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [podset["expected"] for podset in case["podSets"]]
