"""Skip the compile when nothing it reads has changed (issue 6: no-op and --check at 100k nodes).

A cluster's lock entry records `sourcesDigest`: sha256 over taugen's own files (code, schemas,
built-in profiles: a new taugen may compile differently) and every byte the cluster is
compiled from (the project file, inventory, rules and profiles). When that digest and the
tree's digest both match, compiling again would give the same bytes: the build has nothing
to write and `--check` nothing to report. Anything else, a stale inventory (R31) included,
takes the full path, which reports problems with their positions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path

import taugen
from taugen.load.project import LoadedProject
from taugen.lock import ClusterLock, Lock, lock_bytes, tree_digest
from taugen.models.project import Cluster
from taugen.tree import read_files, staging_dir

_SKIPPED = ("__pycache__",)


def sources_digest(loaded: LoadedProject, cluster: Cluster) -> str:
    sources = [loaded.root / cluster.inventory, *(loaded.root / r for r in cluster.rules)]
    files = [loaded.doc.path, *sources, *_expand(loaded.profile_sources())]
    digest = hashlib.sha256(_compiler_digest().encode())
    for file in files:
        digest.update(_relative(file, loaded.root).encode() + b"\0" + _file_digest(file))
    return "sha256:" + digest.hexdigest()


def unchanged(
    loaded: LoadedProject, clusters: Sequence[Cluster], lock: Lock, root: Path, now: datetime
) -> bool:
    """True when compiling `clusters` again would rewrite nothing (lock included)."""
    if staging_dir(root).exists() or not loaded.lock_path.is_file():
        return False
    if set(lock.clusters) - {c.name for c in loaded.project.clusters}:
        return False  # a cluster left the project: the build removes its folder
    return lock_bytes(lock) == loaded.lock_path.read_bytes() and all(
        _cluster_unchanged(loaded, c, lock.clusters.get(c.name), root, now) for c in clusters
    )


def _cluster_unchanged(
    loaded: LoadedProject, cluster: Cluster, entry: ClusterLock | None, root: Path, now: datetime
) -> bool:
    if entry is None or entry.sourcesDigest != sources_digest(loaded, cluster):
        return False
    age = cluster.maxInventoryAge
    if age is not None and now - entry.observedAt > age:
        return False  # R31: the full path refuses it, with the inventory's position
    return (root / cluster.name).is_dir() and tree_digest(read_files(root / cluster.name)) == entry.treeDigest


@cache
def _compiler_digest() -> str:
    package = Path(taugen.__file__).resolve().parent
    files = sorted(p for p in package.rglob("*") if p.is_file() and not set(p.parts) & set(_SKIPPED))
    digest = hashlib.sha256(taugen.__version__.encode())
    for file in files:
        digest.update(file.relative_to(package).as_posix().encode() + b"\0" + _file_digest(file))
    return digest.hexdigest()


def _expand(sources: Iterable[Path]) -> list[Path]:
    return [f for s in sources for f in (_files_under(s) if s.is_dir() else [s])]


def _files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _relative(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:  # the built-in profiles live in the package, not the project
        return file.name


def _file_digest(file: Path) -> bytes:
    try:
        return hashlib.sha256(file.read_bytes()).digest()
    except OSError:  # unreadable: the full path reports it
        return b"unreadable"
