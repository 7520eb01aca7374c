"""Kueue's GPU quota history in a committed clusterqueue.yaml (R35, T2, T3): per gpu-class, the
cohort's queues together (the shared queue and every queue that joins its cohort)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taugen.models.lock import QUOTA_MAX
from taugen.schedulers.committed import as_dict, as_list, count, name_of
from taugen.schedulers.kueue.flavors import CPU_FLAVOR, GPU


def cohort_marks(docs: Sequence[dict[str, Any]], queue: str, path: Path) -> dict[str, int]:
    """Per class, the highest sum over one side of the file of the cohort's queues (T3: the
    shared queue `queue` keeps what the tenants' queues, cohortName `queue`, do not)."""
    sides: dict[int, dict[str, int]] = {}
    seen: dict[str, int] = {}
    for doc in docs:  # both sides of a conflict repeat a queue: a repeated name starts a side
        if not _in_cohort(doc, queue):
            continue
        side = seen[name_of(doc)] = seen.get(name_of(doc), -1) + 1
        marks = sides.setdefault(side, {})
        for gpu_class, gpus in _kueue_marks(doc, path).items():
            marks[gpu_class] = marks.get(gpu_class, 0) + gpus
    result: dict[str, int] = {}
    for marks in sides.values():
        for gpu_class, gpus in marks.items():
            result[gpu_class] = max(min(gpus, QUOTA_MAX), result.get(gpu_class, 0))
    return result


def _in_cohort(doc: dict[str, Any], queue: str) -> bool:
    if doc.get("kind") != "ClusterQueue" or not isinstance(name_of(doc), str):
        return False
    return name_of(doc) == queue or as_dict(doc.get("spec")).get("cohortName") == queue


def _kueue_marks(doc: dict[str, Any], path: Path) -> dict[str, int]:
    marks: dict[str, int] = {}
    for group in as_list(as_dict(doc.get("spec")).get("resourceGroups")):
        for flavor in as_list(as_dict(group).get("flavors")):
            name = str(as_dict(flavor).get("name", ""))
            if name.startswith("taugrid-") and name != CPU_FLAVOR:
                gpus = _gpus(as_dict(flavor).get("resources"), path)
                marks[name.removeprefix("taugrid-")] = gpus
    return marks


def _gpus(resources: Any, path: Path) -> int:
    for resource in as_list(resources):
        if as_dict(resource).get("name") == GPU:
            return count(as_dict(resource).get("nominalQuota", 0), path)
    return 0
