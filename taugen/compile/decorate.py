"""Tree-wide metadata (§4): managed-by label, sync waves and sync options.

Pure (issue 18): new manifests, the input's objects left as they were, from any iterable (a
generator too: the old in-place version returned [] for one, having consumed it).
"""

from __future__ import annotations

from collections.abc import Iterable

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
    meta = {
        **meta,
        "labels": {**meta.get("labels", {}), MANAGED_BY: "taugen"},
        "annotations": {**meta.get("annotations", {}), **annotations},
    }
    return Manifest(manifest.file, {**obj, "metadata": meta})  # not dataclasses.replace: 97,000 calls
