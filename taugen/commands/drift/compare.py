"""Compare a live node list with the compiled tree's node labels (R29) and the inventory.

Drift kinds: taugen labels missing, extra or different on a live node; nodes in the
cluster but not in the inventory, and the reverse; GPU capacity that differs from the
inventory (the quota of R26 is summed from the inventory, not from the cluster).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taugen.compile.manifest import MANAGED_BY
from taugen.core.errors import Problem
from taugen.load.inventory import Inventory, NodeFacts
from taugen.resolve.labels import OWN_PREFIXES


@dataclass(frozen=True)
class LabelDrift:
    node: str
    missing: Mapping[str, str]  # in the tree, not on the live node
    extra: Mapping[str, str]  # taugen's own label keys on the live node that the tree lacks
    different: Mapping[str, tuple[str, str]]  # key -> (tree, live)


@dataclass(frozen=True)
class GpuDrift:
    node: str
    inventory: int
    live: int


@dataclass(frozen=True)
class Drift:
    cluster: str
    labels: tuple[LabelDrift, ...]
    not_in_inventory: tuple[str, ...]  # in the cluster, not in the inventory
    not_in_cluster: tuple[str, ...]  # in the inventory, not in the cluster
    gpu_capacity: tuple[GpuDrift, ...]
    warnings: tuple[Problem, ...] = ()

    @property
    def drifted(self) -> bool:
        return bool(self.labels or self.not_in_inventory or self.not_in_cluster or self.gpu_capacity)


def compare(
    cluster: str, tree: Mapping[str, Mapping[str, str]], inventory: Inventory, live: Inventory
) -> Drift:
    known = {n.name: n for n in inventory.nodes}
    seen = {n.name: n for n in live.nodes}
    labels = [d for n in live.nodes if n.name in known and (d := label_drift(n, tree.get(n.name, {})))]
    gpus = [
        GpuDrift(name, known[name].gpus, seen[name].gpus)
        for name in sorted(set(known) & set(seen))
        if known[name].gpus != seen[name].gpus
    ]
    return Drift(
        cluster,
        tuple(sorted(labels, key=lambda d: d.node)),
        tuple(sorted(set(seen) - set(known))),
        tuple(sorted(set(known) - set(seen))),
        tuple(gpus),
    )


def label_drift(node: NodeFacts, wanted: Mapping[str, str]) -> LabelDrift | None:
    live = node.labels
    missing = {k: v for k, v in sorted(wanted.items()) if k not in live}
    different = {k: (v, live[k]) for k, v in sorted(wanted.items()) if k in live and live[k] != v}
    extra = {k: v for k, v in sorted(live.items()) if k not in wanted and _ours(k)}
    if missing or different or extra:
        return LabelDrift(node.name, missing, extra, different)
    return None


def _ours(key: str) -> bool:
    """§1.2: labels under taugen's prefixes are its outputs; so is its managed-by label (§4)."""
    return key.startswith(OWN_PREFIXES) or key == MANAGED_BY
