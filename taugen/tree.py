"""Write stage: bytes -> out/ (atomic swap per cluster, stale-file removal, check mode)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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
    and replace the lock; return what was replaced. Everything is staged before the first
    rename, so a failure while writing leaves out/ and the lock exactly as they were."""
    staging = staging_dir(root)
    recover(root)
    root.mkdir(parents=True, exist_ok=True)
    staging.mkdir()
    try:
        staged = [name for name, files in clusters.items() if _stage(root, staging, name, files)]
        lock_tmp = _stage_lock(*lock) if lock else None
        for name in staged:
            _swap_in(root, staging, name)
        dropped = [name for name in drop if (root / name).exists()]
        for name in dropped:
            (root / name).rename(staging / f"{name}.old")
        if lock and lock_tmp:
            lock_tmp.replace(lock[0])
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return staged + dropped + ([lock[0].name] if lock and lock_tmp else [])


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


def _swap_in(root: Path, staging: Path, name: str) -> None:
    current = root / name
    if current.exists():
        current.rename(staging / f"{name}.old")
    (staging / name).rename(current)


def _stage_lock(path: Path, content: bytes) -> Path | None:
    if path.is_file() and path.read_bytes() == content:
        return None
    temporary = path.with_name(f".{path.name}.taugen-tmp")
    temporary.write_bytes(content)
    return temporary


def _keep(source: Path, target: Path) -> None:
    """An untouched file keeps its inode and mtime in the new folder."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def recover(root: Path) -> None:
    """Undo a build that died between its two renames: put the old folder back."""
    staging = staging_dir(root)
    if not staging.is_dir():
        return
    for old in staging.glob("*.old"):
        home = root / old.name.removesuffix(".old")
        if not home.exists():
            old.rename(home)
    shutil.rmtree(staging)
