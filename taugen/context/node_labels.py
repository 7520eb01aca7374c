"""The labels a compiled tree puts on each node (R29), whichever node-label backend wrote it.

`nodeLabels: node` writes partial Nodes: the node's name and its labels. `nodeLabels: nfd`
writes NodeFeatureRules (compile/nodelabels/nfd.py): each rule carries one label set and
matches its nodes by name, through the `system.name` feature's `nodename` element with the
operator `In`. Both read back as the same map, so drift and simulate see one tree either way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from taugen.api.nfd import KIND as NFD_RULE
from taugen.compile.nodelabels.nfd import NODE_NAME_ELEMENT, NODE_NAME_FEATURE

NodeLabels = dict[str, dict[str, str]]  # node name -> label key -> value


def node_labels(objects: Iterable[Any]) -> NodeLabels:
    """Node name -> the labels the objects give it; objects of other kinds are ignored."""
    found: NodeLabels = {}
    for obj in objects:
        if not isinstance(obj, dict):
            continue
        if obj.get("kind") == "Node":
            meta = _map(obj.get("metadata"))
            if isinstance(meta.get("name"), str):
                found.setdefault(meta["name"], {}).update(_strings(meta.get("labels")))
        elif obj.get("kind") == NFD_RULE:
            for rule in _list(_map(obj.get("spec")).get("rules")):
                for name in rule_nodes(rule):
                    found.setdefault(name, {}).update(_strings(_map(rule).get("labels")))
    return found


def rule_nodes(rule: Any) -> list[str]:
    """The node names an nfd rule matches through system.name's nodename element."""
    names: list[str] = []
    for feature in _list(_map(rule).get("matchFeatures")):
        if _map(feature).get("feature") != NODE_NAME_FEATURE:
            continue
        expression = _map(_map(_map(feature).get("matchExpressions")).get(NODE_NAME_ELEMENT))
        if expression.get("op") == "In":
            names += [str(v) for v in _list(expression.get("value"))]
    return names


def _strings(labels: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in _map(labels).items()}


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
