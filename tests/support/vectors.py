"""Test helper: feed a recorded Kueue TAS vector (../shared/acceptance/tas-vectors.yaml) to the
placement core, and turn the core's answer back into the vector's `expected` shape."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.core.quantity import Quantity
from taugen.engines.placement.request import PodRequest
from taugen.engines.placement.tas import Assignment, find_assignment
from taugen.engines.placement.tree import HOSTNAME, DomainPath, FilterTaint, TasNode, build_tree
from taugen.schedulers.kueue.units import units

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "acceptance" / "tas-vectors.yaml"
LEVEL_KEYS = {  # the file's short level names (its header says so)
    "topology-block": "cloud.com/topology-block",
    "topology-rack": "cloud.com/topology-rack",
    "hostname": HOSTNAME,
}
TOPOLOGY = "default"


def load_vectors() -> list[dict[str, Any]]:
    if not VECTORS.is_file():
        return []
    return [doc for doc in yaml.safe_load_all(VECTORS.read_text()) if doc]


def _resources(raw: Mapping[str, Any]) -> dict[str, int]:
    return {name: units(name, Quantity.parse(value)) for name, value in raw.items()}


def _taint(text: str) -> FilterTaint:
    head, effect = text.rsplit(":", 1)
    key, _, value = head.partition("=")
    return FilterTaint(key, value, effect)


def run_vector(case: dict[str, Any]) -> dict[str, Any]:
    levels = tuple(LEVEL_KEYS[level] for level in case["levels"])
    host = levels[-1] == HOSTNAME
    nodes: list[TasNode] = []
    free: dict[DomainPath, dict[str, int]] = {}
    usage = {name: _resources(raw) for name, raw in (case.get("usage") or {}).items()}
    for raw in case["nodes"]:
        if not raw.get("ready", True):
            continue  # Kueue drops a node that is not Ready from the tree
        path = (*raw["domain"], raw["name"]) if host else tuple(raw["domain"])
        nodes.append(TasNode(raw["name"], path, tuple(_taint(t) for t in raw.get("taints", []))))
        leaf = free.setdefault(path, {})
        for name, amount in _resources(raw["allocatable"]).items():
            leaf[name] = leaf.get(name, 0) + amount - usage.get(raw["name"], {}).get(name, 0)
    tree = build_tree(TOPOLOGY, levels, nodes)
    req = case["request"]
    level = LEVEL_KEYS.get(req.get("level", ""), req.get("level"))
    request = PodRequest(req["count"], _resources(req["perPod"]), req["mode"], level)
    return _expected_shape(find_assignment(tree, request, free), host)


def _expected_shape(result: Any, host: bool) -> dict[str, Any]:
    if not isinstance(result, Assignment):
        return {"fits": False, "reason": result.reason}
    short = {key: name for name, key in LEVEL_KEYS.items()}
    placed = [
        {"domain": list(p.path[:-1]), "host": p.path[-1], "count": p.count}
        if host
        else {"domain": list(p.path), "count": p.count}
        for p in result.domains
    ]
    return {"fits": True, "assignmentLevels": [short[lv] for lv in result.levels], "assignment": placed}
