"""§11: headlines for a MultiKueue fleet's changes, read from the manager's objects: a worker
added to or removed from the MultiKueueConfig `taugrid` (M1), and the manager's GPU quota per
gpu-class (M2: its workers' summed), whose decrease is a capacity risk."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from taugen.engines.changes.guarantees import gpu_quotas
from taugen.engines.changes.objects import Identity, PlacedObject
from taugen.engines.changes.risks import Risk

CONFIG = "taugrid"  # compile/fleet.py: the MultiKueueConfig its AdmissionCheck names
CHECK = "taugrid-multikueue"


def _workers(side: Mapping[Identity, PlacedObject]) -> dict[str, tuple[Identity, list[str]]]:
    """Per manager folder, its MultiKueueConfig and the workers it lists."""
    found = {}
    for ident, placed in side.items():
        if ident.kind == "MultiKueueConfig" and ident.name == CONFIG:
            clusters = _spec(placed.obj).get("clusters")
            found[ident.cluster] = (ident, [str(c) for c in clusters] if isinstance(clusters, list) else [])
    return found


def _manager_quotas(side: Mapping[Identity, PlacedObject]) -> dict[tuple[str, str], tuple[Identity, int]]:
    """(manager folder, gpu-class) -> its ClusterQueue and GPUs, for a queue naming the check."""
    found = {}
    for ident, placed in side.items():
        checks = (_spec(placed.obj).get("admissionChecksStrategy") or {}).get("admissionChecks") or []
        if ident.kind == "ClusterQueue" and any(
            isinstance(c, dict) and c.get("name") == CHECK for c in checks
        ):
            for gpu_class, gpus in gpu_quotas(placed.obj).items():
                found[(ident.cluster, gpu_class)] = (ident, gpus)
    return found


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else {}


def fleet_changes(
    base: Mapping[Identity, PlacedObject], head: Mapping[Identity, PlacedObject]
) -> Iterator[tuple[Identity, str, tuple[Risk, ...]]]:
    """(object, headline, risks): workers added or removed, then the manager's quota per class."""
    old, new = _workers(base), _workers(head)
    for manager in sorted(old.keys() | new.keys()):
        ident = (new.get(manager) or old[manager])[0]
        before, after = old.get(manager, (ident, []))[1], new.get(manager, (ident, []))[1]
        for worker in [w for w in after if w not in before]:
            yield ident, f"fleet {manager}: worker {worker} added", ()
        for worker in [w for w in before if w not in after]:
            risk = Risk("capacity", "the manager dispatches to one worker fewer")
            yield ident, f"fleet {manager}: worker {worker} removed", (risk,)
    was, now = _manager_quotas(base), _manager_quotas(head)
    for key in sorted(was.keys() | now.keys()):
        gpus_before, gpus_after = was.get(key, (None, 0))[1], now.get(key, (None, 0))[1]
        if gpus_before == gpus_after:
            continue
        queue = (now.get(key) or was[key])[0]
        manager, gpu_class = key
        risks = (Risk("capacity", "the manager admits fewer GPUs"),) if gpus_after < gpus_before else ()
        yield queue, f"fleet {manager}: manager quota {gpu_class} {gpus_before} → {gpus_after} GPUs", risks
