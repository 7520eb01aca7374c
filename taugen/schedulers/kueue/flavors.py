"""Kueue names and quota entries shared by the single queue (R24, R25) and a cohort's queues (T2, T3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taugen.compile.slot import SLOT
from taugen.core.quantity import canonical
from taugen.resolve.labels import CPU_CLASS, PLATFORM_PREFIX

API = "kueue.x-k8s.io/v1beta2"
CPU_FLAVOR = PLATFORM_PREFIX + CPU_CLASS
GPU = "nvidia.com/gpu"
COVERED = ("cpu", "memory", GPU, SLOT)  # R25, in this order
CPU_QUOTA = canonical(100_000)  # R25; "100k" is how the API server prints it (§3)
MEMORY_QUOTA = canonical("100Ti")


def flavor_name(gpu_class: str) -> str:
    return f"taugrid-{gpu_class}"  # R24


def covered(extra: Sequence[str] = ()) -> list[str]:
    """R25's covered resources, then R44's extra resources (sorted) in the same group."""
    return [*COVERED, *extra]


def flavor_quota(name: str, gpus: int, slots: int, extra: Mapping[str, int] | None = None) -> dict[str, Any]:
    """R25: one flavor's entry, every covered resource in the covered order; R44: the extra
    resources after them (`extra`: resource -> quota, in the covered order)."""
    quota = {"cpu": CPU_QUOTA, "memory": MEMORY_QUOTA, GPU: canonical(gpus), SLOT: canonical(slots)}
    quota |= {r: canonical(q) for r, q in (extra or {}).items()}
    return {"name": name, "resources": [{"name": r, "nominalQuota": q} for r, q in quota.items()]}
