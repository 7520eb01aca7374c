"""Hosts, GPUs and Ready hosts per topology domain (R10, R16), for explain and inventory show."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import SINGLETON
from taugen.resolve.labels import ACCELERATOR_DOMAIN, NETWORK_DOMAIN, SITE

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
            "name": self.name,
            "path": list(self.path),
            "hosts": self.hosts,
            "gpus": self.gpus,
            "readyHosts": self.ready,
        }


def count_domains(nodes: Iterable[ResolvedNode]) -> list[DomainCount]:
    """Every domain of the GPU nodes given, level by level (broad first), then by path."""
    totals: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(lambda: [0, 0, 0])
    for node in nodes:
        if node.gpu_class is None:
            continue  # R17: only nodes with a gpu-class are in the topology
        for level, keys in PATHS.items():
            counts = totals[(level, tuple(node.labels[k] for k in keys))]
            counts[0] += 1
            counts[1] += node.gpus
            counts[2] += node.ready
    order = list(PATHS)
    return [
        DomainCount(level, path, *counts)
        for (level, path), counts in sorted(totals.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1]))
    ]
