"""Kueue's GPU quota history in a committed clusterqueue.yaml (R35, T2, T3): per gpu-class, the
cohort's queues together (the shared queue and every queue that joins its cohort); R44: the
same for each extra resource a GPU flavor lists beyond R25's four. R51: with the groups'
Cohorts (cohort.yaml) under the cluster's, their own quota and their queues' count too."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taugen.models.lock import QUOTA_MAX
from taugen.schedulers.committed import as_dict, as_list, count, name_of
from taugen.schedulers.kueue.flavors import COVERED, CPU_FLAVOR, GPU

Marks = dict[str, dict[str, int]]  # gpu-class -> resource -> nominal quota


def cohort_marks(docs: Sequence[dict[str, Any]], queue: str, path: Path) -> dict[str, int]:
    """Per class, the highest sum over one side of the file of the cohort's queues (T3: the
    shared queue `queue` keeps what the tenants' queues, cohortName `queue`, do not)."""
    return {c: r.get(GPU, 0) for c, r in _cohort_resources(docs, queue, path).items()}


def cohort_extra_marks(docs: Sequence[dict[str, Any]], queue: str, path: Path) -> Marks:
    """R44: per class, each extra resource's mark, summed over the cohort as GPUs are."""
    found = _cohort_resources(docs, queue, path)
    extra = {c: {r: q for r, q in sorted(res.items()) if r not in COVERED} for c, res in found.items()}
    return {c: res for c, res in extra.items() if res}


def _cohort_resources(docs: Sequence[dict[str, Any]], queue: str, path: Path) -> Marks:
    sides: dict[int, Marks] = {}
    seen: dict[str, int] = {}
    groups = _groups(docs, queue)
    for doc in docs:  # both sides of a conflict repeat a queue: a repeated name starts a side
        if not _in_cohort(doc, queue, groups):
            continue
        side = seen[name_of(doc)] = seen.get(name_of(doc), -1) + 1
        marks = sides.setdefault(side, {})
        for gpu_class, resources in _kueue_marks(doc, path).items():
            mine = marks.setdefault(gpu_class, {})
            for resource, value in resources.items():
                mine[resource] = mine.get(resource, 0) + value
    result: Marks = {}
    for marks in sides.values():
        for gpu_class, resources in marks.items():
            best = result.setdefault(gpu_class, {})
            for resource, value in resources.items():
                best[resource] = max(min(value, QUOTA_MAX), best.get(resource, 0))
    return result


def _groups(docs: Sequence[dict[str, Any]], queue: str) -> set[str]:
    """R51: the Cohorts whose parents lead to the cluster's Cohort `queue`."""
    parents = {
        name_of(d): as_dict(d.get("spec")).get("parentName")
        for d in docs
        if d.get("kind") == "Cohort" and isinstance(name_of(d), str)
    }
    found: set[str] = set()
    for name in parents:
        chain, up = {name}, parents[name]
        while isinstance(up, str) and up != queue and up in parents and up not in chain:
            chain.add(up)
            up = parents[up]
        if up == queue:
            found.add(name)
    return found


def _in_cohort(doc: dict[str, Any], queue: str, groups: set[str]) -> bool:
    name = name_of(doc)
    if not isinstance(name, str):
        return False
    if doc.get("kind") == "Cohort":
        return name in groups
    if doc.get("kind") != "ClusterQueue":
        return False
    return name == queue or as_dict(doc.get("spec")).get("cohortName") in {queue, *groups}


def _kueue_marks(doc: dict[str, Any], path: Path) -> Marks:
    marks: Marks = {}
    for group in as_list(as_dict(doc.get("spec")).get("resourceGroups")):
        for flavor in as_list(as_dict(group).get("flavors")):
            name = str(as_dict(flavor).get("name", ""))
            if name.startswith("taugrid-") and name != CPU_FLAVOR:
                marks[name.removeprefix("taugrid-")] = _quotas(as_dict(flavor).get("resources"), path)
    return marks


def _quotas(resources: Any, path: Path) -> dict[str, int]:
    """Each resource's nominal quota; GPU 0 when the flavor lists none (as before R44)."""
    found: dict[str, int] = {}
    for resource in as_list(resources):
        name = as_dict(resource).get("name")
        if isinstance(name, str) and name not in found and (name == GPU or name not in COVERED):
            found[name] = count(as_dict(resource).get("nominalQuota", 0), path)
    return {GPU: 0, **found}
