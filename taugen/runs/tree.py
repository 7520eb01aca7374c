"""Read the compiled Kueue objects preflight checks against: ResourceFlavors and the ClusterQueue."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.flavor import ResourceFlavor
from taugen.compile.backends.kueue import FLAVORS_FILE, QUEUE_FILE
from taugen.errors import InputError, Problem, Rule
from taugen.load.document import load_documents
from taugen.load.validate import validate
from taugen.quantity import Quantity

RULE: Rule = "tree"
REBUILD = "run `taugen build`: it writes the cluster's tree"
M = TypeVar("M", bound=BaseModel)


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
class CompiledTree:
    folder: Path
    flavors: tuple[Flavor, ...]
    queue: CompiledQueue


def read_tree(folder: Path, queue_name: str) -> CompiledTree:
    flavors = tuple(_flavor(m) for m in _objects(folder / FLAVORS_FILE, "ResourceFlavor", ResourceFlavor))
    queues = [
        q
        for q in _objects(folder / QUEUE_FILE, "ClusterQueue", ClusterQueue)
        if q.metadata.name == queue_name
    ]
    if not queues:
        raise InputError(
            [Problem(folder / QUEUE_FILE, 0, 0, RULE, f"no ClusterQueue {queue_name} in the tree", REBUILD)]
        )
    return CompiledTree(folder, flavors, _queue(queues[0]))


def _objects(path: Path, kind: str, model: type[M]) -> list[M]:
    if not path.is_file():
        raise InputError([Problem(path, 0, 0, RULE, "not found: the cluster is not built", REBUILD)])
    docs = [d for d in load_documents(path) if isinstance(d.data, dict) and d.data.get("kind") == kind]
    return [validate(model, d, RULE) for d in docs]


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
