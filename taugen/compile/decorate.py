"""Tree-wide metadata (§4): managed-by label, sync waves and sync options.

Pure (issue 18): new manifests, the input's objects left as they were, from any iterable (a
generator too: the old in-place version returned [] for one, having consumed it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from taugen.compile.backend import CompileBackend
from taugen.compile.manifest import MANAGED_BY, SYNC_OPTIONS, SYNC_WAVE, Manifest

COMMON_WAVES = {
    # G3: the policy that stops a partial Node creating a Node is in place before the Nodes
    "ValidatingAdmissionPolicy": "-3",
    "ValidatingAdmissionPolicyBinding": "-3",
    "PriorityClass": "-2",
    "Node": "-2",
    "NodeFeatureRule": "-2",
    "ConfigMap": "1",
}
# a backend's own kinds may share a name (Topology); NodeFeatureRule: nodeLabels nfd, the slot (G4)
COMMON_APIS = ("v1", "scheduling.k8s.io/v1", "nfd.k8s-sigs.io/v1alpha1", "admissionregistration.k8s.io/v1")
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"


def decorate(manifests: Iterable[Manifest], backend: CompileBackend) -> list[Manifest]:
    """Each manifest with the tree-wide label and annotations, in the order given."""
    return [_decorated(manifest, backend) for manifest in manifests]


def _decorated(manifest: Manifest, backend: CompileBackend) -> Manifest:
    obj = manifest.obj
    wave = COMMON_WAVES.get(manifest.kind) if obj["apiVersion"] in COMMON_APIS else None
    annotations = {SYNC_WAVE: wave or backend.wave(manifest)}
    meta = obj["metadata"]
    if obj["apiVersion"].split("/")[0] in backend.crd_groups:  # before the manifest's own options
        own = meta.get("annotations", {}).get(SYNC_OPTIONS)
        annotations[SYNC_OPTIONS] = SKIP_DRY_RUN if own is None else f"{SKIP_DRY_RUN},{own}"
    labels = {**meta.get("labels", {}), MANAGED_BY: "taugen"}
    annotations = {**meta.get("annotations", {}), **annotations}
    if _partial_node(obj, labels, annotations):
        return _in_order(manifest.file, obj, labels, annotations)
    meta = {**meta, "labels": labels, "annotations": annotations}
    return Manifest(manifest.file, {**obj, "metadata": meta})  # not dataclasses.replace: 97,000 calls


Map = dict[str, Any]
_NODE_TOP = frozenset({"apiVersion", "kind", "metadata"})
_NODE_META = frozenset({"name", "labels", "annotations"})


def _partial_node(obj: Map, labels: Map, annotations: Map) -> bool:
    """A partial Node (R29) of string labels and annotations: all but a handful of a large tree."""
    return (
        obj["kind"] == "Node"
        and obj.keys() == _NODE_TOP
        and obj["metadata"].keys() <= _NODE_META
        and type(obj["metadata"]["name"]) is str
        and all(type(v) is str for v in labels.values())
        and all(type(v) is str for v in annotations.values())
    )


def _in_order(file: str, obj: Map, labels: Map, annotations: Map) -> Manifest:
    """The decorated partial Node already as emit orders an object (canonical.ordered: apiVersion,
    kind, metadata; name, labels, annotations; each map by key), so emit takes it as it is
    (issue 36: one copy of 100,000 objects, not two). tests/property/test_decorate_order.py holds
    it equal, in order too, to ordering the general decoration."""
    meta = {
        "name": obj["metadata"]["name"],
        "labels": dict(sorted(labels.items())),
        "annotations": dict(sorted(annotations.items())),
    }
    return Manifest(file, {"apiVersion": obj["apiVersion"], "kind": "Node", "metadata": meta}, canonical=True)
