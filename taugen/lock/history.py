"""Where a cluster's GPU quota history comes from (R26, R35): the lock, else the committed tree.

A lost lock must never lower GPU quota. When `taugen.lock` has no entry for a cluster, the
ClusterQueue committed in the output tree holds the last quota per gpu-class (a cohort's
queues together, T2/T3: the shared queue and every queue that joins its cohort); a KAI tree
holds only the parent Queue's total, which the build may not go below. With neither, the
build says that it starts a new history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taugen.compile.backends.kai import QUEUES_FILE
from taugen.compile.backends.kueue import CPU_FLAVOR, QUEUE_FILE
from taugen.compile.quota import ClassQuota
from taugen.errors import InputError, Problem
from taugen.load.compiled import tree_documents
from taugen.load.document import read_text
from taugen.lock.conflicts import conflict_sides
from taugen.lock.lockfile import LockState
from taugen.models.lock import QUOTA_MAX
from taugen.models.project import Cluster, Scheduler
from taugen.quantity import Quantity, QuantityError

GPU = "nvidia.com/gpu"
RESTORE = "restore taugen.lock from Git (`git checkout HEAD -- taugen.lock`), or pass --allow-quota-decrease"


@dataclass(frozen=True)
class QuotaHistory:
    marks: dict[str, int] = field(default_factory=dict)  # per gpu-class high-water mark
    total: int = 0  # KAI: the committed parent Queue's GPU quota, when the lock had no entry
    source: Path | None = None  # the committed file read when the lock had no entry
    warnings: tuple[Problem, ...] = ()

    @property
    def known(self) -> bool:
        """Whether the lock or the committed tree gave the marks; False: a new history starts."""
        return self.source is not None or not self.warnings


def quota_history(cluster: Cluster, state: LockState, lock_path: Path, folder: Path) -> QuotaHistory:
    """The high-water marks of `cluster`, whose committed tree is `folder` (R35)."""
    entry = state.lock.clusters.get(cluster.name)
    if entry is not None:
        return QuotaHistory(dict(entry.gpuQuota))
    kai = cluster.scheduler == Scheduler.KAI
    source = folder / (QUEUES_FILE if kai else QUEUE_FILE)
    if not source.is_file() or source.is_symlink():
        where = "is missing" if not state.present else f"has no entry for {cluster.name}"
        message = (
            f"taugen.lock {where} and out/{cluster.name} holds no queue: "
            f"cluster {cluster.name} starts a new GPU quota history"
        )
        hint = "expected for a new cluster; otherwise restore taugen.lock from Git before building"
        return QuotaHistory(warnings=(Problem(lock_path, 0, 0, "R26", message, hint).as_warning(),))
    docs = _documents(source)
    marks: dict[str, int] = {}
    total = 0
    if kai:
        total = max((_kai_total(doc, cluster.clusterQueue, source) for doc in docs), default=0)
    else:
        for gpu_class, gpus in _cohort_marks(docs, cluster.clusterQueue, source).items():
            marks[gpu_class] = max(gpus, marks.get(gpu_class, 0))
    message = (
        f"taugen.lock has no entry for cluster {cluster.name}: GPU high-water marks read from the "
        f"committed {source.name} (R35)"
    )
    warning = Problem(source, 0, 0, "R35", message, "this build writes them into taugen.lock").as_warning()
    return QuotaHistory(marks, total, source, (warning,))


def _documents(path: Path) -> list[Any]:
    """Every document of the committed file, both sides of a merge conflict included, read as
    every compiled-tree file is (YAML 1.2 core schema, bounded; taugen/load/compiled.py)."""
    try:
        text = read_text(path)
        sides = conflict_sides(text)
        texts = [text] if sides is None else list(sides)
        return [d for t in texts for d in tree_documents(path, t) if isinstance(d, dict)]
    except ValueError as err:
        raise _unreadable(path, str(err)) from None
    except InputError as err:
        raise _unreadable(path, err.problems[0].message) from None


def _unreadable(path: Path, why: str) -> InputError:
    message = f"taugen.lock has no entry for this cluster and its committed queues cannot be read: {why}"
    return InputError([Problem(path, 0, 0, "R35", message, RESTORE)])


def _cohort_marks(docs: list[dict[str, Any]], queue: str, path: Path) -> dict[str, int]:
    """Per class, the highest sum over one side of the file of the cohort's queues (T3: the
    shared queue `queue` keeps what the tenants' queues, cohortName `queue`, do not)."""
    sides: dict[int, dict[str, int]] = {}
    seen: dict[str, int] = {}
    for doc in docs:  # both sides of a conflict repeat a queue: a repeated name starts a side
        if not _in_cohort(doc, queue):
            continue
        side = seen[_name(doc)] = seen.get(_name(doc), -1) + 1
        marks = sides.setdefault(side, {})
        for gpu_class, gpus in _kueue_marks(doc, path).items():
            marks[gpu_class] = marks.get(gpu_class, 0) + gpus
    result: dict[str, int] = {}
    for marks in sides.values():
        for gpu_class, gpus in marks.items():
            result[gpu_class] = max(min(gpus, QUOTA_MAX), result.get(gpu_class, 0))
    return result


def _in_cohort(doc: dict[str, Any], queue: str) -> bool:
    if doc.get("kind") != "ClusterQueue" or not isinstance(_name(doc), str):
        return False
    return _name(doc) == queue or _dict(doc.get("spec")).get("cohortName") == queue


def _kueue_marks(doc: dict[str, Any], path: Path) -> dict[str, int]:
    marks: dict[str, int] = {}
    for group in _list(_dict(doc.get("spec")).get("resourceGroups")):
        for flavor in _list(_dict(group).get("flavors")):
            name = str(_dict(flavor).get("name", ""))
            if name.startswith("taugrid-") and name != CPU_FLAVOR:
                gpus = _gpus(_dict(flavor).get("resources"), path)
                marks[name.removeprefix("taugrid-")] = gpus
    return marks


def _kai_total(doc: dict[str, Any], queue: str, path: Path) -> int:
    if doc.get("kind") != "Queue" or _name(doc) != queue:
        return 0
    resources = _dict(_dict(doc.get("spec")).get("resources"))
    return _count(_dict(resources.get("gpu")).get("quota", 0), path)


def _gpus(resources: Any, path: Path) -> int:
    for resource in _list(resources):
        if _dict(resource).get("name") == GPU:
            return _count(_dict(resource).get("nominalQuota", 0), path)
    return 0


def _count(value: Any, path: Path) -> int:
    try:
        quantity = Quantity.parse(value if isinstance(value, int | str) else str(value))
    except QuantityError as err:
        raise _unreadable(path, f"GPU quota {value!r}: {err}") from None
    return min(max(int(quantity.value), 0), QUOTA_MAX)  # a committed file is read, never trusted


def _name(doc: dict[str, Any]) -> Any:
    return _dict(doc.get("metadata")).get("name")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def check_total(
    cluster: Cluster, history: QuotaHistory, quotas: Sequence[ClassQuota], allow_decrease: bool
) -> None:
    """R26 for a KAI tree read without a lock: the parent Queue's GPU quota may not go down."""
    compiled = sum(q.gpus for q in quotas)
    if allow_decrease or compiled >= history.total or history.source is None:
        return
    message = (
        f"taugen.lock has no entry for cluster {cluster.name}, and the committed {history.source.name} gives "
        f"its queue {cluster.clusterQueue} {history.total} GPUs; this inventory gives {compiled}: "
        "the build would lower GPU quota"
    )
    raise InputError([Problem(history.source, 0, 0, "R26", message, RESTORE)])
