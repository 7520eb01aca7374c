"""Tree-wide metadata (§4): managed-by label, sync waves and sync options."""

from __future__ import annotations

from collections.abc import Iterable

from taugen.compile.backends.base import Backend
from taugen.compile.manifest import MANAGED_BY, SYNC_OPTIONS, SYNC_WAVE, Manifest, annotate, label

COMMON_WAVES = {"PriorityClass": "-2", "Node": "-2", "NodeFeatureRule": "-2", "ConfigMap": "1"}
# a backend's own kinds may share a name (Topology); NodeFeatureRule: nodeLabels nfd
COMMON_APIS = ("v1", "scheduling.k8s.io/v1", "nfd.k8s-sigs.io/v1alpha1")
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"


def decorate(manifests: Iterable[Manifest], backend: Backend) -> list[Manifest]:
    for manifest in manifests:
        obj = manifest.obj
        label(obj, {MANAGED_BY: "taugen"})
        wave = COMMON_WAVES.get(manifest.kind) if obj["apiVersion"] in COMMON_APIS else None
        annotate(obj, {SYNC_WAVE: wave or backend.wave(manifest)})
        if obj["apiVersion"].split("/")[0] in backend.crd_groups:
            annotate(obj, {SYNC_OPTIONS: SKIP_DRY_RUN})
    return list(manifests)
