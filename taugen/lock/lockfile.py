"""The lock `taugen.lock` (SPEC §5): facts of the reviewed tree, the same on every machine (R33).

Per cluster: the inventory's observedAt, the digest of the inputs its profile catalog was
resolved from (R30), and each gpu-class's GPU quota high-water mark (R26); for a class whose mark
is above the inventory's GPUs, those GPUs (`heldAboveInventory`: diff's held-quota risk reads
them here instead of loading the inventory, issue 36). Nothing here
depends on the machine or on how taugen is installed; the no-op shortcut's cache key lives
outside the reviewed tree (taugen/write/cache.py). A lock with merge-conflict markers is read as
the maximum of both sides (R35, taugen/lock/conflicts.py), never as "no history".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taugen.core.errors import InputError, Problem, Rule
from taugen.core.timestamps import utc_text
from taugen.load import limits
from taugen.load.document import load_one, read_text
from taugen.load.validate import validate
from taugen.lock.conflicts import conflict_sides
from taugen.models.lock import ClusterLock, Lock

RULE: Rule = "lock"
HINT = (
    "taugen.lock is written by taugen and reviewed in Git: restore it (`git checkout HEAD -- taugen.lock`); "
    "after a merge, keep its conflict markers and run `taugen build`"
)


@dataclass(frozen=True)
class LockState:
    """The lock as read: `present` False when there is no file; `conflicted` when it held
    merge-conflict markers and `lock` is the maximum of both sides."""

    lock: Lock
    present: bool = False
    conflicted: bool = False

    def warnings(self, path: Path) -> list[Problem]:
        if not self.conflicted:
            return []
        message = "taugen.lock has merge conflicts: read as the maximum of both sides' high-water marks"
        return [Problem(path, 1, 1, "R35", message, "this build writes the merged lock").as_warning()]


def read_lock(path: Path) -> LockState:
    """The committed lock; an empty one when there is none yet; never one written through a link."""
    if path.is_symlink():
        message = f"{path.name} is a symbolic link: taugen never reads or writes a lock through one"
        raise InputError([Problem(path, 0, 0, RULE, message, "replace the link with the file itself")])
    if not path.exists():
        return LockState(Lock())
    if (sides := _conflict_sides(path, read_text(path))) is not None:
        return LockState(merge_locks(*(_side(path, text) for text in sides)), True, True)
    try:
        return LockState(validate(Lock, load_one(path), RULE), True)
    except InputError as err:
        raise InputError([replace(p, hint=HINT) for p in err.problems]) from None


def _conflict_sides(path: Path, text: str) -> tuple[str, str] | None:
    try:
        return conflict_sides(text)
    except ValueError as err:
        raise InputError([Problem(path, 1, 1, RULE, f"broken merge conflict: {err}", HINT)]) from None


def _side(path: Path, text: str) -> Lock:
    """One side of a conflicted lock, read as strictly as a whole lock is (issue 32): nested no
    deeper than the limit (3,000 levels were a RecursionError) and no key given twice (the JSON
    reader kept the last, so a side could hide its own high-water mark)."""
    try:
        limits.check_text(path, text)
        return Lock.model_validate(json.loads(text, object_pairs_hook=_unique_keys))
    except InputError as err:
        why = err.problems[0].message
    except (ValueError, ValidationError) as err:
        why = str(err).splitlines()[0]
    message = f"one side of the merge conflict is not a lock: {why}"
    raise InputError([Problem(path, 1, 1, RULE, message, HINT)]) from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key!r} is given twice")
        found[key] = value
    return found


def merge_locks(ours: Lock, theirs: Lock) -> Lock:
    """R35: every cluster of either side; per class the higher mark; the later observedAt."""
    clusters = dict(ours.clusters)
    for name, entry in theirs.clusters.items():
        mine = clusters.get(name)
        clusters[name] = entry if mine is None else _merge_entry(mine, entry)
    return Lock(clusters=dict(sorted(clusters.items())))


def _merge_entry(ours: ClusterLock, theirs: ClusterLock) -> ClusterLock:
    later = max(ours, theirs, key=lambda e: e.observedAt)
    earlier = theirs if later is ours else ours
    sharing = {**earlier.gpuSharing, **later.gpuSharing}  # R38: the later side's units
    namespaces = sorted({*ours.guaranteed, *theirs.guaranteed})
    guaranteed = {  # T6: the larger side, so a decrease on either side is still reported as a risk
        n: _max_marks(ours.guaranteed.get(n, {}), theirs.guaranteed.get(n, {})) for n in namespaces
    }
    marks = _max_marks(ours.gpuQuota, theirs.gpuQuota)
    observed = later.gpuQuota | later.heldAboveInventory  # the later inventory's GPUs (issue 36)
    return ClusterLock(
        observedAt=later.observedAt,
        inputsDigest=later.inputsDigest,
        gpuQuota=marks,
        extraQuota={  # R44, R35: per class and resource the higher mark
            c: _max_marks(ours.extraQuota.get(c, {}), theirs.extraQuota.get(c, {}))
            for c in sorted({*ours.extraQuota, *theirs.extraQuota})
        },
        guaranteed=guaranteed,
        gpuSharing=dict(sorted(sharing.items())),
        heldAboveInventory={c: observed.get(c, 0) for c, gpus in marks.items() if gpus > observed.get(c, 0)},
    )


def _max_marks(ours: dict[str, int], theirs: dict[str, int]) -> dict[str, int]:
    marks = dict(ours)
    for gpu_class, gpus in theirs.items():
        marks[gpu_class] = max(gpus, marks.get(gpu_class, 0))
    return dict(sorted(marks.items()))


def lock_bytes(lock: Lock) -> bytes:
    """Deterministic JSON: sorted keys, two-space indent, final newline."""
    data: dict[str, Any] = lock.model_dump(mode="json")
    for name, entry in data["clusters"].items():
        entry["observedAt"] = utc_text(lock.clusters[name].observedAt)
        if not entry["guaranteed"]:  # a cluster without guarantees: the lock of before §10
            del entry["guaranteed"]
        if not entry["extraQuota"]:
            del entry["extraQuota"]  # R44: a cluster without extra resources: the lock of before §14
        if not entry["gpuSharing"]:
            del entry["gpuSharing"]  # R38: only shared classes are recorded; a lock without any is as before
        if not entry["heldAboveInventory"]:
            del entry["heldAboveInventory"]  # issue 36: only a class held above its inventory; else as before
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()
