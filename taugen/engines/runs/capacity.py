"""How many ranks each topology domain can hold (preflight): Ready nodes of the class only,
and of those only the ones the run's pods may use (their taints tolerated, node affinity met).

Pods per node = the minimum over the requested resources of allocatable ÷ request; a
multi-node torchrun rank takes a whole node (one torchrun-host-slot per GPU node), so a
domain holds at most its host count. Current usage is unknown offline: this is capacity in
principle, which is why preflight says "eligible" and nothing more.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from taugen.compile.slot import SLOT
from taugen.core.quantity import Quantity
from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.counts import level_value
from taugen.resolve.labels import LEVELS, NETWORK_DOMAIN

PODS = "pods"  # Kueue counts one `pods` per pod against a node that lists it


@dataclass(frozen=True)
class CapacityDomain:
    level: str | None  # None: every node of the class (unconstrained)
    path: tuple[str, ...]  # the level values, broad to narrow: Kueue names a domain by its path
    ranks: int
    ready: int  # Ready nodes of the class in the domain that the run's pods may use
    not_ready: int  # nodes of the class in it that are not Ready, excluded
    filtered: int = 0  # Ready nodes excluded by the run's node filters (taints, node affinity)

    @property
    def name(self) -> str:
        if self.level is None:
            return "the whole cluster"
        if self.level == NETWORK_DOMAIN:  # R16: network-domain values are scoped by site
            return "/".join(self.path)
        return self.path[-1]


def domains(
    nodes: Sequence[ResolvedNode],
    level: str | None,
    request: Mapping[str, Quantity],
    one_per_node: bool,
    admits: Callable[[ResolvedNode], bool] = lambda node: True,
    leader: Mapping[str, Quantity] | None = None,
    levels: Sequence[str] = LEVELS,
) -> list[CapacityDomain]:
    """The domains at `level` of the given nodes (one gpu-class), sorted by path; a Ready node
    the run's pods may not use (`admits`: taints, node affinity) holds no rank. `leader`: a
    LeaderWorkerSet group's leader with its own requests (K5): a domain holds it and workers.
    `levels`: the cluster's Topology levels, top to bottom (R42)."""
    members: dict[tuple[str, ...], list[ResolvedNode]] = defaultdict(list)
    for node in nodes:
        members[_path(node, level, levels)].append(node)
    found = []
    for path, group in sorted(members.items()):
        usable = [n for n in group if n.ready and admits(n)]
        if leader is None:
            ranks = sum(pods_per_node(n, request, one_per_node) for n in usable)
        else:
            ranks = _with_leader(usable, request, leader, one_per_node)
        ready = sum(n.ready for n in group)
        found.append(CapacityDomain(level, path, ranks, len(usable), len(group) - ready, ready - len(usable)))
    return found


def pods_per_node(node: ResolvedNode, request: Mapping[str, Quantity], one_per_node: bool) -> int:
    return _pods_fitting(node.facts.allocatable, request, one_per_node)


def _with_leader(
    nodes: Sequence[ResolvedNode],
    request: Mapping[str, Quantity],
    leader: Mapping[str, Quantity],
    one_per_node: bool,
) -> int:
    """Pods of one group the nodes hold: the leader on the node that keeps the most room for
    workers, the workers on what is left; 0 when the leader fits on none of them."""
    per_node = [pods_per_node(n, request, one_per_node) for n in nodes]
    best: int | None = None
    for node, own in zip(nodes, per_node, strict=True):
        left = _after(node.facts.allocatable, leader)
        if left is not None:
            workers = sum(per_node) - own + _pods_fitting(left, request, one_per_node)
            best = workers if best is None else max(best, workers)
    return 0 if best is None else best + 1


def _after(allocatable: Mapping[str, Quantity], pod: Mapping[str, Quantity]) -> dict[str, Quantity] | None:
    """What a node has left once `pod` is on it; None when it does not fit."""
    wanted = {r: q for r, q in pod.items() if q.value > 0 and r != SLOT}
    if PODS in allocatable:
        wanted.setdefault(PODS, Quantity.parse(1))
    left = dict(allocatable)
    for resource, quantity in wanted.items():
        have = allocatable.get(resource)
        if have is None or have.value < quantity.value:
            return None
        left[resource] = Quantity(have.value - quantity.value, have.format)
    return left


def _pods_fitting(
    allocatable: Mapping[str, Quantity], request: Mapping[str, Quantity], one_per_node: bool
) -> int:
    wanted = {r: q for r, q in request.items() if q.value > 0 and r != SLOT}
    if PODS in allocatable and PODS not in wanted:
        wanted[PODS] = Quantity.parse(1)
    fits = [int(allocatable[r].value / q.value) if r in allocatable else 0 for r, q in wanted.items()]
    count = min(fits) if fits else 1
    return min(count, 1) if one_per_node else count


def best_fit(found: Sequence[CapacityDomain], workers: int) -> CapacityDomain | None:
    """Among the domains that hold the run, the one with the least capacity (Kueue's BestFit)."""
    fitting = [d for d in found if d.ranks >= workers]
    return min(fitting, key=lambda d: (d.ranks, d.path)) if fitting else None


def largest(found: Sequence[CapacityDomain]) -> CapacityDomain | None:
    return min(found, key=lambda d: (-d.ranks, d.path)) if found else None


def wider_levels(level: str, levels: Sequence[str] = LEVELS) -> list[str]:
    """The levels above `level`, nearest first (never used for placement: no fallback, §7)."""
    return list(reversed(levels[: list(levels).index(level)]))


def _path(node: ResolvedNode, level: str | None, levels: Sequence[str]) -> tuple[str, ...]:
    if level is None:
        return ()
    return tuple(level_value(node, label) for label in levels[: list(levels).index(level) + 1])
