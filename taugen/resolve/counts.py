"""Hosts, GPUs and Ready hosts per topology domain (R10, R16), for explain and inventory show."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import SINGLETON, hostname_of
from taugen.resolve.labels import ACCELERATOR_DOMAIN, COMPUTED, HOSTNAME, NETWORK_DOMAIN, SITE
from taugen.resolve.levels import CONTRACT_LEVELS, Levels

# The levels above the host, with the labels that make up each domain's path (R16: a
# network-domain value is scoped by its site).
PATHS = {
    SITE: (SITE,),
    NETWORK_DOMAIN: (SITE, NETWORK_DOMAIN),
    ACCELERATOR_DOMAIN: (SITE, NETWORK_DOMAIN, ACCELERATOR_DOMAIN),
}


@dataclass(frozen=True)
class DomainCount:
    level: str
    path: tuple[str, ...]
    hosts: int
    gpus: int
    ready: int
    declared: str | None = None  # a level the cluster declares (R42): its name

    @property
    def shown_level(self) -> str:
        """How tables name the level: §2's by their short names, a declared one by its own."""
        return self.declared or self.level.removeprefix("tau.azure.com/")

    @property
    def name(self) -> str:
        """site, site/network-domain, or the accelerator domain's own value (R16: unique)."""
        return self.path[-1] if self.level == ACCELERATOR_DOMAIN else "/".join(self.path)

    @property
    def singleton(self) -> bool:
        return self.path[-1].startswith(SINGLETON)

    def as_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            **({"levelName": self.declared} if self.declared else {}),
            "name": self.name,
            "path": list(self.path),
            "hosts": self.hosts,
            "gpus": self.gpus,
            "readyHosts": self.ready,
        }


def level_value(node: ResolvedNode, label: str) -> str:
    """A node's domain at a level: its hostname, a label taugen computes (R10-R16), or its own
    label (a declared level, R42); "" when it has none, as Kueue reads a missing label."""
    if label == HOSTNAME:
        return hostname_of(node.facts)
    return (node.labels if label in COMPUTED else node.facts.labels).get(label, "")


def count_domains(nodes: Iterable[ResolvedNode], levels: Levels = CONTRACT_LEVELS) -> list[DomainCount]:
    """Every domain of the GPU nodes given, level by level (broad first), then by path. With
    declared levels (R42) the levels are the Topology's, each domain's path the Topology's down
    to it, as Kueue names it; a node without a declared level's label is in none (levels.missing)."""
    paths: dict[str, tuple[str, ...]] = dict(PATHS)
    if levels.declared:
        paths = {label: levels.labels[: i + 1] for i, label in enumerate(levels.labels[:-1])}
    names = {label: name for name, label in levels.levels if name in levels.declared}
    totals: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(lambda: [0, 0, 0])
    for node in nodes:
        if node.gpu_class is None or levels.missing(node.facts.labels):
            continue  # R17: only nodes with a gpu-class are in the topology
        for level, keys in paths.items():
            counts = totals[(level, tuple(level_value(node, k) for k in keys))]
            counts[0] += 1
            counts[1] += node.gpus
            counts[2] += node.ready
    order = list(paths)
    return [
        DomainCount(level, path, counts[0], counts[1], counts[2], names.get(level))
        for (level, path), counts in sorted(totals.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1]))
    ]
