"""R38: a shared class's quota is in advertised GPUs; the lock records how many make one physical.

A change of sharing factor changes the unit the high-water mark (R26) is counted in, so the
old mark cannot be compared with the new count: the build refuses unless
--allow-quota-decrease, which starts the class's history again in the new unit.
"""

from __future__ import annotations

from collections.abc import Sequence

from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError, Problem
from taugen.models.lock import ClusterLock
from taugen.resolve.cluster import ResolvedCluster


def _shown(factor: int) -> str:
    return "whole GPUs" if factor == 1 else f"shared x{factor}"


def recorded_sharing(
    resolved: ResolvedCluster,
    previous: ClusterLock | None,
    quotas: Sequence[ClassQuota],
    allow_decrease: bool,
) -> dict[str, int]:
    """The factors to record per shared class; InputError when one changed without the flag."""
    before = previous.gpuSharing if previous is not None else {}
    marks = previous.gpuQuota if previous is not None else {}
    problems: list[Problem] = []
    recorded: dict[str, int] = {}
    for quota in quotas:
        old = before.get(quota.gpu_class, 1)
        new = resolved.sharing.get(quota.gpu_class, 1) if quota.nodes else old  # vanished: units kept
        if new != old and quota.gpu_class in marks and not allow_decrease:
            problems.append(_changed(resolved, quota.gpu_class, old, new, marks[quota.gpu_class]))
        if new > 1:
            recorded[quota.gpu_class] = new
    if problems:
        raise InputError(problems)
    return recorded


def _changed(resolved: ResolvedCluster, gpu_class: str, old: int, new: int, mark: int) -> Problem:
    node = next(n for n in resolved.nodes if n.gpu_class == gpu_class)
    return node.facts.at("name").problem(
        "R38",
        f"gpu-class {gpu_class} was {_shown(old)} and is now {_shown(new)} in cluster {resolved.name}: "
        f"its high-water mark {mark} is in the old unit",
        "pass --allow-quota-decrease to start its GPU quota again in the new unit, or restore the sharing",
    )
