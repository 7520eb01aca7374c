"""The topology tree of one flavor and phase 1 of Kueue's TAS: pods that fit, summed up (S3).

A domain is named by its path of level values, broad to narrow (Kueue's domain id). The
lowest level need not be the host: then a leaf is e.g. a rack and its capacity is the sum of
its nodes'. Capacity is given per leaf by the caller (allocatable minus usage), in integer
base units (cpu in millicores), so the core knows nothing about YAML or quantities.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# The core's taints and tolerations are the models' (preflight matches them too): re-exported.
from taugen.models.node_filters import FilterTaint as FilterTaint
from taugen.models.node_filters import FilterToleration as FilterToleration
from taugen.models.node_filters import untolerated as untolerated

HOSTNAME = "kubernetes.io/hostname"
PODS = "pods"  # Kueue adds one `pods` to every pod's request

DomainPath = tuple[str, ...]
Resources = Mapping[str, int]


@dataclass(frozen=True)
class TasNode:
    """A Ready node of the flavor. `path` holds every level's value (the host's included when
    the host is a level); a node that is not Ready is never given to the tree (Kueue drops it)."""

    name: str
    path: DomainPath
    taints: tuple[FilterTaint, ...] = ()
    labels: frozenset[tuple[str, str]] = frozenset()  # what a node selector or affinity is matched to


@dataclass(frozen=True)
class TasDomain:
    path: DomainPath
    children: tuple[TasDomain, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class TasTree:
    name: str  # the Topology's name: it shows in failure messages
    levels: tuple[str, ...]
    per_level: tuple[tuple[TasDomain, ...], ...]  # each level's domains, sorted by path
    nodes: Mapping[DomainPath, tuple[TasNode, ...]]  # leaf -> its nodes
    tainted: bool = False  # any node has a taint (else the taint check is skipped)

    @property
    def host_leaves(self) -> bool:
        return self.levels[-1] == HOSTNAME

    def leaves(self) -> tuple[TasDomain, ...]:
        return self.per_level[-1] if self.per_level else ()


def build_tree(name: str, levels: Sequence[str], nodes: Sequence[TasNode]) -> TasTree:
    members: dict[DomainPath, list[TasNode]] = {}
    for node in sorted(nodes, key=lambda n: (n.path, n.name)):
        members.setdefault(node.path, []).append(node)
    per_level: list[tuple[TasDomain, ...]] = []
    paths = sorted(members)
    children: dict[DomainPath, tuple[TasDomain, ...]] = {}
    for depth in range(len(levels), 0, -1):
        at_level = sorted({p[:depth] for p in paths})
        domains = tuple(TasDomain(p, children.get(p, ())) for p in at_level)
        per_level.insert(0, domains)
        grouped: dict[DomainPath, list[TasDomain]] = {}
        for domain in domains:
            grouped.setdefault(domain.path[:-1], []).append(domain)
        children = {p: tuple(ds) for p, ds in grouped.items()}
    grouped_nodes = {p: tuple(ns) for p, ns in members.items()}
    return TasTree(name, tuple(levels), tuple(per_level), grouped_nodes, any(n.taints for n in nodes))


def wanted(request: Resources) -> tuple[tuple[str, int], ...]:
    """The positive requests, by name: what `count_in` divides by."""
    return tuple(sorted((r, v) for r, v in request.items() if v > 0))


def count_in(request: tuple[tuple[str, int], ...], free: Resources) -> tuple[int, str | None]:
    """Pods that fit, and the limiting resource (first by name among the tightest)."""
    best: tuple[int, str | None] = (-1, None)
    for resource, amount in request:
        if resource not in free:
            if resource == PODS:  # an inventory that omits `pods` sets no pod limit
                continue
            fits = 0
        else:
            fits = max(free[resource], 0) // amount
        if best[0] < 0 or fits < best[0]:
            best = (fits, resource)
    return best if best[0] >= 0 else (1 << 30, None)
