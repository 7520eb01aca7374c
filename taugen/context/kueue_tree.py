"""A compiled Kueue tree's ResourceFlavors and ClusterQueue, as preflight and simulate read them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.flavor import ResourceFlavor
from taugen.quantity import Quantity


@dataclass(frozen=True)
class Flavor:
    name: str
    node_labels: dict[str, str]
    topology: str | None


@dataclass(frozen=True)
class QueueFlavor:
    name: str
    nominal: dict[str, Quantity]  # resource -> nominalQuota


@dataclass(frozen=True)
class CompiledQueue:
    name: str
    covered: tuple[str, ...]
    flavors: tuple[QueueFlavor, ...]  # in the queue's order

    def flavor(self, name: str) -> QueueFlavor | None:
        return next((f for f in self.flavors if f.name == name), None)


@dataclass(frozen=True)
class KueueTree:
    flavors: tuple[Flavor, ...]
    queue: CompiledQueue


def kueue_tree(flavors: Sequence[ResourceFlavor], queue: ClusterQueue) -> KueueTree:
    return KueueTree(tuple(_flavor(f) for f in flavors), _queue(queue))


def _flavor(flavor: ResourceFlavor) -> Flavor:
    spec = flavor.spec
    labels = dict(spec.node_labels or {}) if spec else {}
    return Flavor(flavor.metadata.name or "", labels, spec.topology_name if spec else None)


def _queue(queue: ClusterQueue) -> CompiledQueue:
    groups = (queue.spec.resource_groups or []) if queue.spec else []
    covered = tuple(r for g in groups for r in g.covered_resources)
    flavors = tuple(
        QueueFlavor(f.name, {r.name: Quantity.parse(r.nominal_quota) for r in f.resources})
        for g in groups
        for f in g.flavors
    )
    return CompiledQueue(queue.metadata.name or "", covered, flavors)
