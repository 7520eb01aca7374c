"""What the placement core is asked (Kueue's TASPodSetRequests in taugen's terms) and what a
request implies before any capacity is counted: the level index, the slicing, the leaders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from taugen.engines.placement.counts import Slicing
from taugen.engines.placement.tree import FilterToleration, Resources, TasTree
from taugen.models.node_filters import NodeRequirement

Mode = Literal["required", "preferred", "unconstrained"]


@dataclass(frozen=True)
class NoFit:
    reason: str  # Kueue's failure message, word for word


@dataclass(frozen=True)
class SliceLayer:
    level: str
    size: int


@dataclass(frozen=True)
class PodRequest:
    count: int
    per_pod: Resources  # integer base units; cpu in millicores
    mode: Mode
    level: str | None = None  # unconstrained: None is the lowest level
    tolerations: tuple[FilterToleration, ...] = ()
    selector: tuple[tuple[str, str], ...] = ()  # the pod's node selector (host leaves only)
    slices: tuple[SliceLayer, ...] = ()  # outermost first; () : every pod is its own slice
    leader: Resources | None = None  # a PodSet group's leader (one pod) and its requests
    affinity: tuple[tuple[NodeRequirement, ...], ...] = ()  # required node affinity terms, ORed


@dataclass(frozen=True)
class LevelPlan:
    request: PodRequest
    index: int  # the requested level
    slicing: Slicing
    leaders: int

    @property
    def slice_count(self) -> int:
        return self.request.count // self.slicing.size


def plan_of(tree: TasTree, request: PodRequest) -> LevelPlan | NoFit:
    """Kueue's checks of a request before phase 1, in its order, and the slicing it implies."""
    levels = tree.levels
    outer = request.slices[0] if request.slices else SliceLayer(levels[-1], 1)
    if outer.size <= 0:
        return NoFit("slice topology requested, but slice size not provided")
    level = request.level or levels[-1] if request.mode == "unconstrained" else request.level
    if level not in levels:
        return NoFit(f"no requested topology level: {level}")
    index = levels.index(level)
    if outer.level not in levels:
        return NoFit(f"no requested topology level for slices: {outer.level}")
    slice_index = levels.index(outer.level)
    if index > slice_index:
        return NoFit(f"podset slice topology {outer.level} is above the podset topology {level}")
    inner = _inner(levels, request.slices, slice_index)
    if isinstance(inner, NoFit):
        return inner
    return LevelPlan(
        request, index, Slicing(outer.size, slice_index, inner), 0 if request.leader is None else 1
    )


def _inner(levels: tuple[str, ...], layers: tuple[SliceLayer, ...], outer: int) -> dict[int, int] | NoFit:
    """Kueue's buildSliceSizeAtLevel: each inner layer's size on every level down to its own."""
    found: dict[int, int] = {}
    size, at = (layers[0].size, outer) if layers else (1, outer)
    for layer in layers[1:]:
        if layer.level not in levels:
            return NoFit(f"no requested topology level for additional slice layer: {layer.level}")
        index = levels.index(layer.level)
        if index <= at:
            return NoFit(
                f"additional slice layer topology {layer.level} must be at a lower level than {levels[at]}"
            )
        if size % layer.size:
            return NoFit(
                f"additional slice layer size {layer.size} must evenly divide parent layer size {size}"
            )
        found.update(dict.fromkeys(range(at + 1, index + 1), layer.size))
        size, at = layer.size, index
    return found
