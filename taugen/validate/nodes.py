"""Nodes against the topology: Kueue silently drops a node that misses a level label."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from taugen.core import names
from taugen.resolve.labels import GPU_CLASS, OWN_PREFIXES
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource
from taugen.validate.semantic import Tree, list_of, map_of, meta_of, spec_of

NAME_HINT = "a Node name is a DNS subdomain: what `kubectl get nodes` lists"


def _labels(resource: Resource) -> dict[str, str]:
    return meta_of(resource, "labels")


def class_levels(tree: Tree) -> dict[str, list[str]]:
    """gpu-class -> the level labels of its TAS flavor's Topology."""
    levels = {
        t.name: [lv.get("nodeLabel") for lv in list_of(spec_of(t).get("levels")) if isinstance(lv, dict)]
        for t in tree.of("Topology")
    }
    found: dict[str, list[str]] = {}
    for rf in tree.of("ResourceFlavor"):
        spec = spec_of(rf)
        gpu_class, topology = map_of(spec.get("nodeLabels")).get(GPU_CLASS), spec.get("topologyName")
        if isinstance(gpu_class, str) and gpu_class and isinstance(topology, str) and topology in levels:
            found[gpu_class] = [str(x) for x in levels[topology]]  # a value of another type: the schema's
    return found


LabelSet = tuple[Resource, list[str | int], dict[str, Any]]


def _label_sets(tree: Tree) -> list[LabelSet]:
    """Each partial Node's labels, and each NodeFeatureRule rule's (nodeLabels: nfd); found once
    per tree, for the three rules that read them."""
    found: list[LabelSet] | None = tree.memo.get("label_sets")
    if found is None:
        found = tree.memo["label_sets"] = list(_each_label_set(tree))
    return found


_NODE_LABELS: list[str | int] = ["metadata", "labels"]  # shared by every Node's entry: never changed


def _each_label_set(tree: Tree) -> Iterator[LabelSet]:
    for node in tree.of("Node", kueue=False):
        yield node, _NODE_LABELS, _labels(node)
    for nfr in tree.of("NodeFeatureRule", kueue=False):
        for i, rule in enumerate(list_of(spec_of(nfr).get("rules"))):
            yield nfr, ["spec", "rules", i, "labels"], map_of(map_of(rule).get("labels"))


MULTIKUEUE = "kueue.x-k8s.io/multikueue"  # compile/fleet.py CONTROLLER


def node_levels(tree: Tree) -> Iterator[Finding]:
    by_class = class_levels(tree)
    for resource, path, labels in _label_sets(tree):
        gpu_class = str(labels.get(GPU_CLASS) or "")  # the schema reports a label that is no string
        # the kubelet sets the hostname label; a partial Node in Git never carries it (R29), nor
        # a level the cluster declares (R42): the node's own label, checked against the inventory
        missing = [
            lv for lv in by_class.get(gpu_class, []) if lv.startswith(OWN_PREFIXES) and lv not in labels
        ]
        if gpu_class and missing:
            yield finding(
                resource,
                [*path, GPU_CLASS],
                "node-levels",
                f"gpu-class {gpu_class} node misses level labels {', '.join(missing)}",
                "Kueue drops a node without every level label from topology-aware scheduling",
            )


def flavor_nodes(tree: Tree) -> Iterator[Finding]:
    """A MultiKueue manager's flavors are placed on its workers' nodes (§11, M2): no warning."""
    if any(spec_of(ac).get("controllerName") == MULTIKUEUE for ac in tree.of("AdmissionCheck")):
        return
    carried = {str(labels.get(GPU_CLASS)) for _, _, labels in _label_sets(tree)} | tree.carried
    for rf in tree.of("ResourceFlavor"):
        spec = spec_of(rf)
        gpu_class = map_of(spec.get("nodeLabels")).get(GPU_CLASS)
        if gpu_class and spec.get("topologyName") and str(gpu_class) not in carried:
            yield finding(
                rf,
                ["spec", "nodeLabels", GPU_CLASS],
                "flavor-nodes",
                f"no Node in the tree carries gpu-class {gpu_class}",
                "expected while a vanished class keeps its quota (R26); otherwise check the labels",
                warning=True,
            )


def node_names(tree: Tree) -> Iterator[Finding]:
    """A Node's name and labels as the API server checks them; no schema of a Node does (issue 17
    item 5: a name ending in a newline passed)."""
    key_error, value_error = _once(names.label_key_error), _once(names.label_value_error)
    good_keys: set[Any] = set()  # keys and values already found valid: 100,000 Nodes repeat them
    good_values: set[str] = set()
    for node, _, labels in _label_sets(tree):
        if node.kind != "Node":
            continue  # a NodeFeatureRule's labels are its schema's
        name = map_of(node.obj.get("metadata")).get("name")
        why = names.dns1123_subdomain_error(name) if isinstance(name, str) and name else None
        if why:
            yield finding(node, ["metadata", "name"], "node-name", f"the name {name!r} {why}", NAME_HINT)
        for key, value in labels.items():
            if key in good_keys and type(value) is str and value in good_values:
                continue
            key_why, value_why = key_error(key), value_error(value)
            if key_why:
                yield finding(
                    node, ["metadata", "labels", key], "node-label", f"label key {key!r} {key_why}", key=True
                )
            elif value_why:
                yield finding(
                    node,
                    ["metadata", "labels", key],
                    "node-label",
                    f"label {key} value {value!r} {value_why}",
                )
            else:
                good_keys.add(key)
                good_values.add(value)


def _once(check: Callable[[str], str | None]) -> Callable[[Any], str | None]:
    """`check` asked once per distinct string; anything else is not a string."""
    seen: dict[str, str | None] = {}

    def why(value: Any) -> str | None:
        if not isinstance(value, str):
            return "is not a string"
        if value not in seen:
            seen[value] = check(value)
        return seen[value]

    return why
