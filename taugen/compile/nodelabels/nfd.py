"""nodeLabels: nfd — NodeFeatureRules that set the same labels on the same nodes as `node` does.

For clusters that do not let a GitOps tool touch Node objects: node-feature-discovery's master
applies the labels. A rule matches nodes by name, through the `system.name` feature's
`nodename` element that nfd-worker publishes, so a worker must run on every labelled node.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from taugen.api.nfd import KIND, NFD_API
from taugen.compile.manifest import SYNC_OPTIONS, Manifest, annotate, object_
from taugen.compile.nodelabels.base import labelled, node_file
from taugen.errors import TaugenError
from taugen.resolve.cluster import ResolvedNode

NODE_NAME_FEATURE, NODE_NAME_ELEMENT = "system.name", "nodename"
# nfd-master refuses labels under kubernetes.io except these namespaces (its -deny-label-ns).
_ALLOWED_K8S = ("feature.node.kubernetes.io", "profile.node.kubernetes.io")
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"  # the first sync may precede NFD's CRDs


class NfdLabelError(TaugenError):
    """A label nfd-master would silently drop: refused rather than half applied."""


class NfdBackend:
    name = "nfd"

    def manifests(self, nodes: Sequence[ResolvedNode]) -> list[Manifest]:
        by_file: dict[str, list[ResolvedNode]] = {}
        for node in labelled(nodes):
            _check_labels(node)
            by_file.setdefault(node_file(node), []).append(node)
        return [_rule_object(file, members) for file, members in sorted(by_file.items())]


def rule_object_name(gpu_class: str | None, file: str) -> str:
    """Unique per shard (G5): a class's network domains are files of one cluster tree, and two
    objects of one name there are one object to kustomize and the API server (issue 20)."""
    shard = PurePosixPath(file).stem.lstrip("_")  # `_single-hosts`: a name cannot start with `_`
    return f"taugen-labels-{gpu_class or 'no-gpu-class'}-{shard}"


def _rule_object(file: str, nodes: list[ResolvedNode]) -> Manifest:
    """One object per file; one rule per distinct label set, matching its nodes by name."""
    groups: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for node in nodes:
        groups.setdefault(tuple(sorted(node.labels.items())), []).append(node.name)
    rules = sorted((_rule(dict(k), names) for k, names in groups.items()), key=lambda r: str(r["name"]))
    obj = object_(NFD_API, KIND, rule_object_name(nodes[0].gpu_class, file), spec={"rules": rules})
    annotate(obj, {SYNC_OPTIONS: SKIP_DRY_RUN})
    return Manifest(file, obj)


def _rule(labels: Mapping[str, str], names: list[str]) -> dict[str, Any]:
    # Named by its labels, not its members: a node joining a rack changes one value list only.
    digest = hashlib.sha256(json.dumps(labels, sort_keys=True).encode()).hexdigest()[:12]
    match = {NODE_NAME_ELEMENT: {"op": "In", "value": sorted(names)}}
    return {
        "name": f"taugen-{digest}",
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
