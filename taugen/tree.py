"""Write stage: bytes -> out/ (atomic swap per cluster, stale-file removal, check mode)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.errors import InputError, Problem

Files = Mapping[str, bytes]  # path relative to out/<cluster>/ -> content


@dataclass(frozen=True)
class FileDiff:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def read_files(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() or p.is_symlink()
    }


def diff_files(old: Files, new: Files) -> FileDiff:
    return FileDiff(
        added=tuple(sorted(set(new) - set(old))),
        changed=tuple(sorted(k for k in set(old) & set(new) if old[k] != new[k])),
        removed=tuple(sorted(set(old) - set(new))),
    )


def staging_dir(root: Path) -> Path:
    """Beside the output root (same file system, so renames are atomic), never inside it."""
    return root.parent / f".{root.name}.taugen-staging"


def write_tree(
    root: Path,
    clusters: Mapping[str, Files],
    drop: tuple[str, ...] = (),
    lock: tuple[Path, bytes] | None = None,
) -> list[str]:
    """Swap in every cluster folder whose bytes changed, drop the folders of removed clusters,
    and replace the lock; return what was replaced.

    Everything is staged first; then a journal naming every rename is written with one atomic
    rename: the commit point. A build that dies before it leaves out/ and the lock as they were;
    one that dies after it is rolled forward by the next build (`recover`), so the tree and the
    lock are always both old or both new, however many clusters change."""
    staging = staging_dir(root)
    recover(root)
    root.mkdir(parents=True, exist_ok=True)
    staging.mkdir()
    lock_tmp = lock[0].with_name(f".{lock[0].name}.taugen-tmp") if lock else None
    try:
        _write_json(staging / PLAN, {"lock": _lock_move(lock_tmp, lock)})  # what to clean up
        staged = [name for name, files in clusters.items() if _stage(root, staging, name, files)]
        crash_point("staged")
        replaced_lock = bool(lock and lock_tmp and _stage_lock(lock_tmp, *lock))
        dropped = [name for name in drop if (root / name).exists()]
        journal = {
            "swap": staged,
            "drop": dropped,
            "lock": _lock_move(lock_tmp, lock) if replaced_lock else None,
        }
        _write_json(staging / JOURNAL, journal)  # the commit point
    except BaseException:
        recover(root)  # not committed: undo
        raise
    crash_point("committed")
    _roll_forward(root, staging, journal)
    _finish(staging)
    return staged + dropped + ([lock[0].name] if lock and replaced_lock else [])


PLAN, JOURNAL = "plan.json", "journal.json"
_CRASH_AT = os.environ.get("TAUGEN_CRASH_AT")  # tests/crash: die here (read once; unset costs nothing)
_passed: dict[str, int] = {}


def crash_point(name: str) -> None:
    """SIGKILL this process at a named point when TAUGEN_CRASH_AT is `name` or `name:N` (the
    N-th time it is passed); the crash harness uses it to hit the windows between renames."""
    if _CRASH_AT is None:
        return
    _passed[name] = _passed.get(name, 0) + 1
    if _CRASH_AT in (name, f"{name}:{_passed[name]}"):
        os.kill(os.getpid(), signal.SIGKILL)


def _lock_move(temporary: Path | None, lock: tuple[Path, bytes] | None) -> list[str] | None:
    return [str(temporary.resolve()), str(lock[0].resolve())] if temporary and lock else None


def _write_json(path: Path, data: object) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data))
    temporary.replace(path)


def _roll_forward(root: Path, staging: Path, journal: dict[str, Any]) -> None:
    """Every rename of a committed journal that is not done yet; each step may be repeated."""
    for name in journal["swap"]:
        if (staging / name).exists():
            if (root / name).exists():
                (root / name).rename(staging / f"{name}.old")
            (staging / name).rename(root / name)
        crash_point("swapped")
    for name in journal["drop"]:
        if (root / name).exists():
            (root / name).rename(staging / f"{name}.old")
    if journal["lock"] and Path(journal["lock"][0]).exists():
        Path(journal["lock"][0]).replace(journal["lock"][1])
    crash_point("renamed")


def _finish(staging: Path) -> None:
    (staging / JOURNAL).unlink()  # first: a crash in rmtree must not replay the journal
    shutil.rmtree(staging)


def _stage(root: Path, staging: Path, name: str, files: Files) -> bool:
    current = root / name
    old = read_files(current)
    if not diff_files(old, files):
        return False  # §4: an unchanged input rewrites nothing, mtimes stay
    fresh = staging / name
    for rel, content in files.items():
        target = fresh / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if old.get(rel) == content:
            _keep(current / rel, target)
        else:
            target.write_bytes(content)
    return True


def _stage_lock(temporary: Path, path: Path, content: bytes) -> bool:
    if path.is_file() and path.read_bytes() == content:
        return False
    temporary.write_bytes(content)
    return True


def _keep(source: Path, target: Path) -> None:
    """An untouched file keeps its inode and mtime in the new folder."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def recover(root: Path) -> None:
    """Finish or undo a build that died while writing. With a committed journal, do the
    renames it lists that are not done yet; without one, put back any folder moved aside and
    delete what was staged (the lock's temporary file included)."""
    staging = staging_dir(root)
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        message = f"{staging} is not a folder taugen made: it stages its writes there"
        raise InputError([Problem(staging, 0, 0, "output", message, "remove it, then build again")])
    if not staging.is_dir():
        return
    if (staging / JOURNAL).is_file():
        _roll_forward(root, staging, json.loads((staging / JOURNAL).read_text()))
        _finish(staging)
        return
    for old in staging.glob("*.old"):
        home = root / old.name.removesuffix(".old")
        if not home.exists():
            old.rename(home)
    if (staging / PLAN).is_file() and (move := json.loads((staging / PLAN).read_text())["lock"]):
        Path(move[0]).unlink(missing_ok=True)
    shutil.rmtree(staging)
