"""Tree-wide metadata (§4): managed-by label, sync waves and sync options."""

from __future__ import annotations

from collections.abc import Iterable

from taugen.backends.base import Backend
from taugen.compile.manifest import MANAGED_BY, SYNC_OPTIONS, SYNC_WAVE, Manifest, annotate, label

COMMON_WAVES = {"PriorityClass": "-2", "Node": "-2", "ConfigMap": "1"}
SKIP_DRY_RUN = "SkipDryRunOnMissingResource=true"


def decorate(manifests: Iterable[Manifest], backend: Backend) -> list[Manifest]:
    waves = {**COMMON_WAVES, **backend.waves}
    for manifest in manifests:
        obj = manifest.obj
        label(obj, {MANAGED_BY: "taugen"})
        annotate(obj, {SYNC_WAVE: waves[manifest.kind]})
        if obj["apiVersion"].split("/")[0] in backend.crd_groups:
            annotate(obj, {SYNC_OPTIONS: SKIP_DRY_RUN})
    return list(manifests)
