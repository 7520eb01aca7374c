"""Where a cluster's GPU quota history comes from (R26, R35): the lock, else the committed tree.

A lost lock must never lower GPU quota. When `taugen.lock` has no entry for a cluster, the
queue file committed in the output tree holds the last quota, read back by the cluster's
scheduler (`Backend.quota_marks`): Kueue's per gpu-class, KAI's parent Queue total, which the
build may not go below. With neither, the
build says that it starts a new history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError, Problem
from taugen.load.compiled import tree_documents
from taugen.load.document import read_text
from taugen.lock.conflicts import conflict_sides
from taugen.lock.lockfile import LockState
from taugen.models.project import Cluster
from taugen.schedulers.committed import RESTORE, unreadable
from taugen.schedulers.registry import scheduler_of


@dataclass(frozen=True)
class QuotaHistory:
    marks: dict[str, int] = field(default_factory=dict)  # per gpu-class high-water mark
    total: int = 0  # KAI: the committed parent Queue's GPU quota, when the lock had no entry
    source: Path | None = None  # the committed file read when the lock had no entry
    warnings: tuple[Problem, ...] = ()
    # R44: gpu-class -> extra resource -> mark, from the lock (a lost lock: read from no tree yet)
    extra_marks: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def known(self) -> bool:
        """Whether the lock or the committed tree gave the marks; False: a new history starts."""
        return self.source is not None or not self.warnings


def quota_history(cluster: Cluster, state: LockState, lock_path: Path, folder: Path) -> QuotaHistory:
    """The high-water marks of `cluster`, whose committed tree is `folder` (R35)."""
    entry = state.lock.clusters.get(cluster.name)
    if entry is not None:
        extra = {c: dict(m) for c, m in entry.extraQuota.items()}  # R44
        return QuotaHistory(dict(entry.gpuQuota), extra_marks=extra)
    backend = scheduler_of(cluster.scheduler)
    source = folder / backend.files.queues
    if not source.is_file() or source.is_symlink():
        where = "is missing" if not state.present else f"has no entry for {cluster.name}"
        message = (
            f"taugen.lock {where} and out/{cluster.name} holds no queue: "
            f"cluster {cluster.name} starts a new GPU quota history"
        )
        hint = "expected for a new cluster; otherwise restore taugen.lock from Git before building"
        return QuotaHistory(warnings=(Problem(lock_path, 0, 0, "R26", message, hint).as_warning(),))
    docs = _documents(source)
    for name in backend.files.also_quota:  # R51: a group's Cohort holds quota of its own
        more = folder / name
        if more.is_file() and not more.is_symlink():
            docs += _documents(more)
    found = backend.quota_marks(docs, cluster, source)
    message = (
        f"taugen.lock has no entry for cluster {cluster.name}: GPU high-water marks read from the "
        f"committed {source.name} (R35)"
    )
    warning = Problem(source, 0, 0, "R35", message, "this build writes them into taugen.lock").as_warning()
    return QuotaHistory(found.marks, found.total, source, (warning,), found.extra)


def _documents(path: Path) -> list[Any]:
    """Every document of the committed file, both sides of a merge conflict included, read as
    every compiled-tree file is (YAML 1.2 core schema, bounded; taugen/load/compiled.py)."""
    try:
        text = read_text(path)
        sides = conflict_sides(text)
        texts = [text] if sides is None else list(sides)
        return [d for t in texts for d in tree_documents(path, t) if isinstance(d, dict)]
    except ValueError as err:
        raise unreadable(path, str(err)) from None
    except InputError as err:
        raise unreadable(path, err.problems[0].message) from None


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
