"""Small clusters for the engine tests: three levels (site, rack, host), 8-GPU hosts."""

from __future__ import annotations

from typing import Any

from taugen.engines.admission.model import SimFlavor, SimInput, SimNode, SimRun
from taugen.engines.placement.tree import HOSTNAME

SLOT = "tau.azure.com/torchrun-host-slot"
GPU = "nvidia.com/gpu"
LEVELS = ("site", "rack", HOSTNAME)
FLAVOR = "taugrid-h200"


def node(name: str, rack: str = "r1", ready: bool = True, gpus: int = 8) -> SimNode:
    return SimNode(name, ready, FLAVOR, ("s1", rack, name), {"cpu": 96_000, GPU: gpus, SLOT: 1})


def run(name: str, workers: int = 1, **fields: Any) -> SimRun:
    base: dict[str, Any] = {
        "key": f"team-a/{name}",
        "priority": 1000,
        "created": "2026-11-29T10:00:00Z",
        "flavor": FLAVOR,
        "count": workers,
        "per_pod": {GPU: 8},
        "mode": "required",
        "level": "site",
        "gpus": 8,
    }
    base.update(fields)
    return SimRun(**base)


def flavor(**nominal: int) -> SimFlavor:
    quota = {"cpu": 10**9, GPU: 10**6, SLOT: 10**6}
    quota.update({GPU if k == "gpu" else SLOT if k == "slot" else k: v for k, v in nominal.items()})
    return SimFlavor(FLAVOR, quota, tas=True)


def cluster(nodes: list[SimNode], runs: list[SimRun], **fields: Any) -> SimInput:
    flavors = fields.pop("flavors", (flavor(),))
    return SimInput("taugrid-gpu-topology", LEVELS, tuple(flavors), tuple(nodes), tuple(runs), **fields)
