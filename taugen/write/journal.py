"""Write stage: bytes -> out/ (atomic swap per cluster, stale-file removal, check mode).

Everything in the checkout may come from a pull request, the staging folder included: the
journal that makes a multi-cluster swap atomic names only cluster folders and G6's two, every path is
derived from the output root and the lock's own path, and nothing is followed through a
symbolic link (issue 17).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.core.errors import InputError, Problem
from taugen.core.names import output_folder_error
from taugen.load.limits import MAX_BYTES

Files = Mapping[str, bytes]  # path relative to out/<cluster>/ -> content
JOURNAL = "journal.json"
_LINK, _ODD, _LARGE = b"\0taugen: a symbolic link\0", b"\0taugen: not a file\0", b"\0taugen: too large\0"


@dataclass(frozen=True)
class FileDiff:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def read_files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, links and special files as markers that never equal content
    (nothing is followed or opened but a regular file within the size limit)."""
    return {rel: _content(path) for rel, path in _paths(folder).items()}


class FilesOnDisk(Mapping[str, bytes]):
    """read_files' files, each read when asked for and not kept: for a reader that looks at each
    once (issue 36: `--check` held a 100,000-node tree's 80 MiB whole beside the compiled one)."""

    def __init__(self, folder: Path) -> None:
        self._paths = _paths(folder)

    def __getitem__(self, rel: str) -> bytes:
        return _content(self._paths[rel])

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def _paths(folder: Path) -> dict[str, Path]:
    """The files under `folder` by relative path, in order; links are listed, never followed."""
    if folder.is_symlink() or not folder.is_dir():
        return {}
    found: dict[str, Path] = {}
    for parent, dirs, names in os.walk(folder):
        base = Path(parent)
        links = [d for d in dirs if (base / d).is_symlink()]
        dirs[:] = sorted(d for d in dirs if d not in links)
        for name in sorted([*names, *links]):
            found[(base / name).relative_to(folder).as_posix()] = base / name
    return dict(sorted(found.items()))


def _content(path: Path) -> bytes:
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        return _LINK
    if not stat.S_ISREG(info.st_mode):
        return _ODD
    return _LARGE if info.st_size > MAX_BYTES else path.read_bytes()


def diff_files(old: Files, new: Files) -> FileDiff:
    return FileDiff(
        added=tuple(sorted(set(new) - set(old))),
        changed=tuple(sorted(k for k in set(old) & set(new) if old[k] != new[k])),
        removed=tuple(sorted(set(old) - set(new))),
    )


def staging_dir(root: Path) -> Path:
    """Beside the output root (same file system, so renames are atomic), never inside it."""
    return root.parent / f".{root.name}.taugen-staging"


def lock_temporary(lock: Path) -> Path:
    return lock.with_name(f".{lock.name}.taugen-tmp")


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
    lock_path = lock[0] if lock else None
    recover(root, lock_path)
    root.mkdir(parents=True, exist_ok=True)
    staging.mkdir()
    try:
        staged = [name for name, files in clusters.items() if _stage(root, staging, name, files)]
        crash_point("staged")
        replaced_lock = bool(lock and _stage_lock(*lock))
        dropped = [name for name in drop if _present(root / name)]
        journal = {"swap": staged, "drop": dropped, "lock": replaced_lock}
        _write_json(staging / JOURNAL, journal)  # the commit point
    except BaseException:
        recover(root, lock_path)  # not committed: undo
        raise
    crash_point("committed")
    _roll_forward(root, staging, journal, lock_path)
    _finish(staging)
    return staged + dropped + ([lock[0].name] if lock and replaced_lock else [])


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


def _present(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _write_json(path: Path, data: object) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data))
    temporary.replace(path)


def _roll_forward(root: Path, staging: Path, journal: dict[str, Any], lock: Path | None) -> None:
    """Every rename of a committed journal that is not done yet; each step may be repeated."""
    for name in journal["swap"]:
        if _present(staging / name):
            if _present(root / name):
                (root / name).rename(staging / f"{name}.old")
            (staging / name).rename(root / name)
        crash_point("swapped")
    for name in journal["drop"]:
        if _present(root / name):
            (root / name).rename(staging / f"{name}.old")
    if journal["lock"] and lock is not None and _present(lock_temporary(lock)):
        lock_temporary(lock).replace(lock)
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


def _stage_lock(path: Path, content: bytes) -> bool:
    if path.is_file() and not path.is_symlink() and path.read_bytes() == content:
        return False
    temporary = lock_temporary(path)
    temporary.unlink(missing_ok=True)  # never write through a link left in its place
    temporary.write_bytes(content)
    return True


def _keep(source: Path, target: Path) -> None:
    """An untouched file keeps its inode and mtime in the new folder."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def recover(root: Path, lock: Path | None = None) -> None:
    """Finish or undo a build that died while writing. With a committed journal, do the
    renames it lists that are not done yet; without one, put back any folder moved aside and
    delete what was staged (the lock's temporary file included). A staging folder that taugen
    could not have left is refused, and nothing in it is acted on."""
    staging = staging_dir(root)
    if not _present(staging):
        return
    journal = _journal(staging)
    if journal is not None:
        _roll_forward(root, staging, journal, lock)
        _finish(staging)
        return
    for old in sorted(staging.glob("*.old")):
        home = root / old.name.removesuffix(".old")
        if not _present(home):
            old.rename(home)
    if lock is not None:
        lock_temporary(lock).unlink(missing_ok=True)
    shutil.rmtree(staging)


def _journal(staging: Path) -> dict[str, Any] | None:
    """The committed journal, checked to name nothing but cluster folders taugen staged."""
    _refuse_unless(staging.is_dir() and not staging.is_symlink(), staging, "is not a folder taugen made")
    for entry in staging.iterdir():
        name = entry.name.removesuffix(".old")
        if entry.name in (JOURNAL, f"{Path(JOURNAL).stem}.tmp"):
            _refuse_unless(
                _regular(entry) and entry.stat().st_size < 1 << 20, entry, "is not taugen's journal"
            )
        else:
            _refuse_unless(
                not output_folder_error(name) and entry.is_dir() and not entry.is_symlink(),
                entry,
                "is not a cluster folder taugen staged",
            )
    if not (staging / JOURNAL).is_file():
        return None
    try:
        journal = json.loads((staging / JOURNAL).read_text())
    except (ValueError, UnicodeDecodeError):
        journal = None
    _refuse_unless(_valid_journal(journal), staging / JOURNAL, "is not a journal taugen wrote")
    return dict(journal)


def _valid_journal(journal: Any) -> bool:
    """Exactly the three keys write_tree writes: output folders (a cluster's or G6's) to swap
    and drop, a lock flag."""
    if not isinstance(journal, dict) or set(journal) != {"swap", "drop", "lock"}:
        return False
    lists = [journal["swap"], journal["drop"]]
    if not all(isinstance(names, list) for names in lists) or not isinstance(journal["lock"], bool):
        return False
    return all(isinstance(n, str) and not output_folder_error(n) for names in lists for n in names)


def _regular(path: Path) -> bool:
    return stat.S_ISREG(path.lstat().st_mode)


def _refuse_unless(ok: bool, path: Path, what: str) -> None:
    if not ok:
        message = f"{path} {what}: taugen stages its writes there and acts on nothing else"
        hint = "remove the staging folder (it is never committed), then build again"
        raise InputError([Problem(path, 0, 0, "output", message, hint)])
