"""SPEC G4: the torchrun host slot, advertised on every NVIDIA GPU node by node-feature-discovery.

Every multi-node torchrun rank requests one `tau.azure.com/torchrun-host-slot` (§7), so that no
two ranks share a host; Kueue's TAS and the kube-scheduler place a rank only on a node whose
allocatable lists the resource. nfd-master (v0.13 or newer) sets it from this rule's
`extendedResources` on each node with an NVIDIA (PCI vendor 10de) display controller: VGA
(class 0300) or 3D (0302, the data-centre GPUs). Written for both node-label backends.
"""

from __future__ import annotations

from collections.abc import Sequence

from taugen.api.nfd import KIND, NFD_API
from taugen.compile.manifest import SYNC_OPTIONS, Manifest, annotate, object_
from taugen.compile.nodelabels.nfd import SKIP_DRY_RUN
from taugen.compile.quota import ClassQuota

SLOT = "tau.azure.com/torchrun-host-slot"  # G4: the extended resource a GPU node advertises
SLOT_RULE = "taugen-torchrun-host-slot"
SLOT_FILE = "torchrun-host-slot.yaml"
NVIDIA_VENDOR = "10de"
GPU_PCI_CLASSES = ("0300", "0302")  # display controller: VGA-compatible, 3D


def slot_rule(quotas: Sequence[ClassQuota]) -> list[Manifest]:
    """The slot's NodeFeatureRule in a cluster with a gpu-class (one slot per GPU node, R27)."""
    if not quotas:
        return []
    pci = {
        "vendor": {"op": "In", "value": [NVIDIA_VENDOR]},
        "class": {"op": "In", "value": list(GPU_PCI_CLASSES)},
    }
    rule = {
        "name": SLOT_RULE,
        "extendedResources": {SLOT: "1"},
        "matchFeatures": [{"feature": "pci.device", "matchExpressions": pci}],
    }
    obj = object_(NFD_API, KIND, SLOT_RULE, spec={"rules": [rule]})
    annotate(obj, {SYNC_OPTIONS: SKIP_DRY_RUN})  # the first sync may precede NFD's CRDs
    return [Manifest(SLOT_FILE, obj)]


def no_slot_reason() -> str:
    """Why a multi-node torchrun run cannot be placed on a tree without the slot rule."""
    return (
        f"no node offers {SLOT}, which every rank requests: the tree has no NodeFeatureRule "
        f"{SLOT_RULE} ({SLOT_FILE}, SPEC G4) to advertise it; run `taugen build` and commit out/"
    )


def advertises_slot(objects: Sequence[object]) -> bool:
    """Whether any of the objects is a NodeFeatureRule with a rule setting the slot resource."""
    for obj in objects:
        if not isinstance(obj, dict) or obj.get("kind") != KIND:
            continue
        rules = (obj.get("spec") or {}).get("rules") if isinstance(obj.get("spec"), dict) else None
        for rule in rules if isinstance(rules, list) else []:
            resources = rule.get("extendedResources") if isinstance(rule, dict) else None
            if isinstance(resources, dict) and SLOT in resources:
                return True
    return False
