"""What a cluster adds to an applied object, which `taugen diff` reads as no change (issue 31).

Measured on the real kube-apiserver v1.34.2 with Kueue v0.19.2's controllers, by applying every
tree the example and a 1,000-node fleet compile (tests/realcluster/test_trees.py, which fails
when the control plane adds a field not listed here; server_defaults.yaml beside it). A field at
the value the server defaults it to is the field left out, so a tree read back from a cluster
(`kubectl get … -o yaml`) diffs against the compiled one as no change. The server's bookkeeping
(uid, resourceVersion, managed fields, Kueue's finalizer) and `status` are never compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Path = tuple[str, ...]  # "*": every item of a list
KUEUE = "kueue.x-k8s.io/v1beta2"
DEFAULTS: dict[tuple[str, str], tuple[tuple[Path, Any], ...]] = {
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"): (
        (("spec", "matchConstraints", "matchPolicy"), "Equivalent"),
        (("spec", "matchConstraints", "namespaceSelector"), {}),
        (("spec", "matchConstraints", "objectSelector"), {}),
        (("spec", "matchConstraints", "resourceRules", "*", "scope"), "*"),
    ),
    (KUEUE, "ClusterQueue"): (
        (("spec", "flavorFungibility", "whenCanBorrow"), "MayStopSearch"),
        (("spec", "flavorFungibility", "whenCanPreempt"), "TryNextFlavor"),
        (("spec", "preemption", "borrowWithinCohort", "policy"), "Never"),
        (("spec", "preemption", "reclaimWithinCohort"), "Never"),
        (("spec", "stopPolicy"), "None"),
    ),
    (KUEUE, "LocalQueue"): ((("spec", "stopPolicy"), "None"),),
    ("kustomize.toolkit.fluxcd.io/v1", "Kustomization"): ((("spec", "force"), False),),
    # R20 writes globalDefault: false; the server omits a false bool (omitempty)
    ("scheduling.k8s.io/v1", "PriorityClass"): ((("globalDefault",), False),),
}
SERVER_METADATA = ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields")
CONTROLLER_FINALIZERS = frozenset({"kueue.x-k8s.io/resource-in-use"})


def without_cluster_fields(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The object as taugen writes it: server defaults, bookkeeping and status left out."""
    out = {str(k): v for k, v in obj.items() if k != "status"}
    meta = out.get("metadata")
    if isinstance(meta, Mapping):
        meta = {str(k): v for k, v in meta.items() if k not in SERVER_METADATA}
        finalizers = [f for f in meta.get("finalizers") or [] if f not in CONTROLLER_FINALIZERS]
        meta = {k: v for k, v in meta.items() if k != "finalizers"} | (
            {"finalizers": finalizers} if finalizers else {}
        )
        out["metadata"] = meta
    for path, value in DEFAULTS.get((str(obj.get("apiVersion")), str(obj.get("kind"))), ()):
        out = _dropped(out, path, value)
    return out


def _dropped(node: Any, path: Path, value: Any) -> Any:
    """`node` without the field at `path` where it equals `value` (and without a map left empty
    by that, which the server would have written only for this default)."""
    if not path:
        return node
    head, rest = path[0], path[1:]
    if head == "*":
        return [_dropped(item, rest, value) for item in node] if isinstance(node, list) else node
    if not isinstance(node, Mapping) or head not in node:
        return node
    if not rest:
        return {k: v for k, v in node.items() if not (k == head and v == value)}
    child = _dropped(node[head], rest, value)
    if child == {} and node[head] != {}:
        return {k: v for k, v in node.items() if k != head}
    return {**node, head: child}
