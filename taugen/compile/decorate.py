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
    if (node := _node(manifest.obj, backend)) is not None:
        return Manifest(manifest.file, node, ordered=True)
    return _general(manifest, backend)


def _general(manifest: Manifest, backend: CompileBackend) -> Manifest:
    obj = manifest.obj
    wave = COMMON_WAVES.get(manifest.kind) if obj["apiVersion"] in COMMON_APIS else None
    annotations = {SYNC_WAVE: wave or backend.wave(manifest)}
    meta = obj["metadata"]
    if obj["apiVersion"].split("/")[0] in backend.crd_groups:  # before the manifest's own options
        own = meta.get("annotations", {}).get(SYNC_OPTIONS)
        annotations[SYNC_OPTIONS] = SKIP_DRY_RUN if own is None else f"{SKIP_DRY_RUN},{own}"
    meta = {
        **meta,
        "labels": {**meta.get("labels", {}), MANAGED_BY: "taugen"},
        "annotations": {**meta.get("annotations", {}), **annotations},
    }
    return Manifest(manifest.file, {**obj, "metadata": meta})  # not dataclasses.replace: 97,000 calls


_TOP = frozenset({"apiVersion", "kind", "metadata"})
_META = frozenset({"name", "labels", "annotations"})
_STRINGS = frozenset({str})
_NODE_WAVE = COMMON_WAVES["Node"]
_NOTES: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}  # decorated annotations, by the given
_KEPT = 64  # annotation sets remembered: every Node of a build has the same few


def _node(obj: dict[str, Any], backend: CompileBackend) -> dict[str, Any] | None:
    """A partial Node (nodelabels/node.py: a name and maps of strings to strings), decorated as
    `_general` decorates it and in emit's canonical order, with each map built once (issue 36:
    decorating, then ordering, built each three times for 100,000 Nodes); None for anything
    else. `tests/property/test_decorate_nodes.py` holds it to the general path."""
    if obj.keys() != _TOP or obj["apiVersion"] != "v1" or obj["kind"] != "Node" or "v1" in backend.crd_groups:
        return None
    meta = obj["metadata"]
    if type(meta) is not dict or not meta.keys() <= _META or type(meta.get("name")) is not str:
        return None
    labels, notes = meta.get("labels", {}), meta.get("annotations", {})
    if type(labels) is not dict or type(notes) is not dict or not _strings(labels) or not _strings(notes):
        return None
    merged = {**labels, MANAGED_BY: "taugen"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": meta["name"],
            "labels": {k: merged[k] for k in sorted(merged)},
            "annotations": _annotations(notes),
        },
    }


def _strings(node: dict[Any, Any]) -> bool:
    """Keys and values all exact strings (emit sorts inside anything else), tested in C."""
    return _STRINGS.issuperset(map(type, node)) and _STRINGS.issuperset(map(type, node.values()))


def _annotations(notes: dict[str, str]) -> dict[str, str]:
    """The Node's annotations and its sync wave, by key: a new dict per Node, built once per set."""
    given = tuple(notes.items())
    if (done := _NOTES.get(given)) is None:
        if len(_NOTES) >= _KEPT:
            _NOTES.clear()
        merged = {**notes, SYNC_WAVE: _NODE_WAVE}
        done = _NOTES[given] = {k: merged[k] for k in sorted(merged)}
    return dict(done)
