"""Kueue v0.19.2's node replacement for an admitted TopologyAssignment (findReplacementAssignment):
the pods of the unhealthy node are placed again, confined to the domain the rest of the
assignment requires, and merged into what stays.

The required domain is the incomplete slice's domain when the lost pods break a slice (the
innermost broken layer of several), else the required level's domain of the assignment's first
host; the lost pods keep the innermost slice size that divides them. `taugen simulate` replaces
ranks host by host instead (S5, seed 002); this is Kueue's own algorithm, checked against its
tests (tests/data/tas-upstream). Test support, not product (issue 33): no command runs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from taugen.engines.placement.request import NoFit, PodRequest, SliceLayer
from taugen.engines.placement.tas import Assignment, Placed, find_assignment
from taugen.engines.placement.tree import DomainPath, Resources, TasTree


def find_replacement(
    tree: TasTree,
    request: PodRequest,
    existing: Sequence[tuple[str, int]],
    unhealthy: str,
    free: Mapping[DomainPath, Resources],
) -> Assignment | NoFit:
    """`existing`: the admitted assignment's hosts and counts, in its order; host leaves only."""
    missing = sum(n for host, n in existing if host == unhealthy)
    leaf_of = {leaf.path[-1]: leaf.path for leaf in tree.leaves()}
    kept = [(host, n) for host, n in existing if host != unhealthy]
    stale = next((host for host, _ in kept if host not in leaf_of), None)
    if stale is not None:
        return NoFit(
            "Cannot replace the node, because the existing topologyAssignment is invalid, "
            f"as it contains the stale domain {stale}"
        )
    placed = tuple(Placed(leaf_of[host], n) for host, n in kept)
    within = _required_domain(tree, request, placed, missing)
    slices = request.slices
    if slices and within is not None and missing % slices[0].size:
        slices = _dividing(slices, missing)
    found = find_assignment(tree, replace(request, count=missing, slices=slices), free, within)
    if isinstance(found, NoFit):
        return found
    if not found.domains:
        return NoFit(f"cannot find replacement assignment for unhealthy node: {unhealthy}")
    return Assignment(found.levels, _merged(found.domains, placed))


def _required_domain(
    tree: TasTree, request: PodRequest, placed: tuple[Placed, ...], missing: int
) -> DomainPath | None:
    """Kueue's requiredReplacementDomain; None: the whole tree."""
    level = request.level or tree.levels[-1]
    if level not in tree.levels or not placed:
        return None
    layers = request.slices
    if layers and missing % layers[0].size:
        broken = next((layer for layer in reversed(layers) if missing % layer.size), layers[0])
        return _incomplete(tree, placed, missing, broken if len(layers) > 1 else layers[0])
    if request.mode != "required":
        return None
    return placed[0].path[: tree.levels.index(level) + 1]


def _incomplete(
    tree: TasTree, placed: tuple[Placed, ...], missing: int, layer: SliceLayer
) -> DomainPath | None:
    """Kueue's findIncompleteSliceDomain: the slice-level domain the lost pods complete (the
    first by path when several do: Kueue's map order is random)."""
    if layer.level not in tree.levels:
        return None
    depth = tree.levels.index(layer.level) + 1
    usage: dict[DomainPath, int] = {}
    for domain in placed:
        usage[domain.path[:depth]] = usage.get(domain.path[:depth], 0) + domain.count
    return next((path for path in sorted(usage) if (usage[path] + missing) % layer.size == 0), None)


def _dividing(layers: tuple[SliceLayer, ...], missing: int) -> tuple[SliceLayer, ...]:
    """The innermost layer whose size divides the lost pods; none: each pod its own slice."""
    found = next((layer for layer in reversed(layers) if missing % layer.size == 0), None)
    return () if found is None else (found,)


def _merged(new: tuple[Placed, ...], kept: tuple[Placed, ...]) -> tuple[Placed, ...]:
    """Kueue's mergeTopologyAssignments: by path, a host in both counted once with the sum."""
    merged: list[Placed] = []
    for domain in sorted((*new, *kept), key=lambda p: p.path):
        if merged and merged[-1].path == domain.path:
            merged[-1] = Placed(domain.path, merged[-1].count + domain.count)
        else:
            merged.append(domain)
    return tuple(merged)
