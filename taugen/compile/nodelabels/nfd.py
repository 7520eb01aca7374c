"""nodeLabels: nfd — NodeFeatureRules that set the same labels on the same nodes as `node` does.

For clusters that do not let a GitOps tool touch Node objects: node-feature-discovery's master
applies the labels. A rule matches nodes by name, through the `system.name` feature's
`nodename` element that nfd-worker publishes, so a worker must run on every labelled node.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from taugen.api.nfd import KIND, NFD_API
from taugen.compile.manifest import SYNC_OPTIONS, Manifest, annotate, object_
from taugen.compile.nodelabels.base import NODES_DIR, labelled, node_file, packed
from taugen.compile.nodelabels.shards import json_length  # G2's limit is measured in compact JSON
from taugen.core.errors import TaugenError
from taugen.core.names import subdomain_name
from taugen.resolve.cluster import ResolvedNode

NODE_NAME_FEATURE, NODE_NAME_ELEMENT = "system.name", "nodename"
# nfd-master refuses labels under kubernetes.io except these namespaces (its -deny-label-ns).
_ALLOWED_K8S = ("feature.node.kubernetes.io", "profile.node.kubernetes.io")
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"  # the first sync may precede NFD's CRDs


class NfdLabelError(TaugenError):
    """A label nfd-master would silently drop: refused rather than half applied."""


MAX_OBJECT_BYTES = 262_144  # SPEC G2: Argo CD's client-side apply limit, as compact JSON
# what decorate.py adds (managed-by, sync wave) and the object's own envelope fit in the rest
RULES_BUDGET = MAX_OBJECT_BYTES - 4096
PREFIX = "taugen-labels-"


class NfdBackend:
    name = "nfd"

    def manifests(self, nodes: Sequence[ResolvedNode]) -> list[Manifest]:
        by_file: dict[str, list[ResolvedNode]] = {}
        for node in labelled(nodes):
            _check_labels(node)
            by_file.setdefault(node_file(node), []).append(node)
        return rule_objects(by_file, RULES_BUDGET)


def rule_objects(by_file: Mapping[str, Sequence[ResolvedNode]], budget: int) -> list[Manifest]:
    """G5: each file's rules in as many objects as `budget` bytes of rules need, every object
    named uniquely in the cluster (a cluster-scoped name shared by two files applies once)."""
    parts = [
        (file, index, rules)
        for file in sorted(by_file)
        for index, rules in enumerate(_packed(_file_rules(by_file[file], budget), budget), start=1)
    ]
    names = [rule_object_name(file) + (f"-{index}" if index > 1 else "") for file, index, _ in parts]
    shared = {name for name, count in Counter(names).items() if count > 1}
    return [
        _rule_object(file, _unshared(name, f"{file}#{index}") if name in shared else name, rules)
        for (file, index, rules), name in zip(parts, names, strict=True)
    ]


def rule_object_name(file: str) -> str:
    """The NodeFeatureRule of a file of the layout (base.node_file): `taugen-labels-` and the
    file's path under nodes/ (`<gpu-class>-<network-domain file>`), made a valid name."""
    stem = file.removeprefix(f"{NODES_DIR}/").removesuffix(".yaml").lstrip("_")
    return subdomain_name(PREFIX + stem.replace("/", "-"))


def _unshared(name: str, key: str) -> str:
    # two files whose names meet across the `-` (class `a` domain `b-c`, class `a-b` domain `c`)
    return subdomain_name(f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:8]}")


def _rule_object(file: str, name: str, rules: list[dict[str, Any]]) -> Manifest:
    obj = object_(NFD_API, KIND, name, spec={"rules": rules})
    annotate(obj, {SYNC_OPTIONS: SKIP_DRY_RUN})
    return Manifest(file, obj)


def _file_rules(nodes: Sequence[ResolvedNode], budget: int) -> list[dict[str, Any]]:
    """One rule per distinct label set, matching its nodes by name; sorted by rule name."""
    groups: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for node in nodes:
        groups.setdefault(tuple(sorted(node.labels.items())), []).append(node.name)
    rules = (r for k, names in groups.items() for r in _sized_rules(dict(k), sorted(names), budget))
    return sorted(rules, key=lambda r: str(r["name"]))


def _packed(rules: list[dict[str, Any]], budget: int) -> list[list[dict[str, Any]]]:
    """The rules in order, in as few objects as keep each object's rules under `budget` bytes."""
    return packed(rules, [json_length(rule) + 1 for rule in rules], budget)


def _sized_rules(labels: Mapping[str, str], names: list[str], budget: int) -> list[dict[str, Any]]:
    """One rule; several with the same labels when its node names alone pass the budget."""
    base = json_length(_rule(labels, [], 2))
    chunks = packed(names, [json_length(name) + 1 for name in names], budget - base)
    return [_rule(labels, chunk, i) for i, chunk in enumerate(chunks, start=1)]


def _rule(labels: Mapping[str, str], names: list[str], part: int = 1) -> dict[str, Any]:
    # Named by its labels, not its members: a node joining a rack changes one value list only.
    digest = hashlib.sha256(json.dumps(labels, sort_keys=True).encode()).hexdigest()[:12]
    match = {NODE_NAME_ELEMENT: {"op": "In", "value": names}}
    return {
        "name": f"taugen-{digest}" + (f"-{part}" if part > 1 else ""),
        "labels": dict(labels),
        "matchFeatures": [{"feature": NODE_NAME_FEATURE, "matchExpressions": match}],
    }


def _check_labels(node: ResolvedNode) -> None:
    for key in node.labels:
        prefix = key.partition("/")[0] if "/" in key else ""
        if _denied(prefix):
            raise NfdLabelError(
                f"node {node.name}: label {key} is in a kubernetes.io namespace, which nfd-master "
                "does not set; use `nodeLabels: node` for this cluster or a rule label outside kubernetes.io"
            )


def _denied(prefix: str) -> bool:
    if not (prefix == "kubernetes.io" or prefix.endswith(".kubernetes.io")):
        return False
    return not any(prefix == ns or prefix.endswith("." + ns) for ns in _ALLOWED_K8S)
