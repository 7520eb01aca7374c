"""The no-op shortcut's cache (R33): kept in the user's cache folder, never in the reviewed tree.

A plain `taugen build` whose inputs, options, tree and lock are all as the last build of the
same project left them has nothing to write; it repeats that build's warnings and returns.
The entry is keyed by taugen's own files and by every byte the build reads, and it records
what the build left: a digest of each cluster folder and of the lock. Without an entry, or
with any difference, the build compiles as usual, so a lost or foreign cache only costs
time. `build --check` never reads it (R34): a check is always a real compile.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import taugen
from taugen.core.errors import Problem
from taugen.core.names import GITOPS_FOLDERS
from taugen.core.timestamps import utc_text
from taugen.load.limits import MAX_BYTES
from taugen.write.journal import FilesOnDisk

CACHE_ENV = "TAUGEN_CACHE_DIR"  # where entries live; default $XDG_CACHE_HOME/taugen or ~/.cache/taugen
_SKIPPED = ("__pycache__",)


@dataclass(frozen=True)
class Request:
    """What a build reads and how it was asked to build: the cache key's parts."""

    project: Path
    root: Path
    clusters: tuple[str, ...]
    options: tuple[bool, ...]  # allow_quota_decrease, allow_stale, writes the lock
    sources: tuple[Path, ...]
    lock: Path


def cache_folder() -> Path:
    if explicit := os.environ.get(CACHE_ENV):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "taugen"


def lookup(request: Request, now: datetime) -> tuple[Problem, ...] | None:
    """The warnings of the build that left everything as it is, or None: compile. The entry is
    read first: without one, no input is read and hashed (issue 36: 0.04 s of a first build of
    a 100,000-node fleet)."""
    entry = _read(request)
    if entry is None or (key := _key(request)) is None or entry.get("key") != key:
        return None
    try:
        if any(now > datetime.fromisoformat(deadline) for deadline in entry["deadlines"]):
            return None  # R31: maxInventoryAge has passed; the full path refuses it with positions
        if entry["state"] != _state(request):
            return None
        return tuple(_problem(w) for w in entry["warnings"])
    except (KeyError, TypeError, ValueError):  # an entry of another shape: only a slower build
        return None


def store(request: Request, deadlines: Iterable[datetime], warnings: Sequence[Problem]) -> None:
    """Record what this build left; a cache that cannot be written is only a slower next build."""
    key = _key(request)
    if key is None:
        return
    entry = {
        "key": key,
        "deadlines": sorted(utc_text(d) for d in deadlines),
        "state": _state(request),
        "warnings": [_warning(w) for w in warnings],
    }
    path = entry_of(request.project)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(entry, sort_keys=True))
        temporary.replace(path)
    except OSError:
        pass


def entry_of(project: Path) -> Path:
    """The project's entry (it may not be there)."""
    name = hashlib.sha256(str(project.resolve()).encode()).hexdigest()[:32]
    return cache_folder() / f"{name}.json"


def _read(request: Request) -> dict[str, Any] | None:
    try:
        data = json.loads(bounded(entry_of(request.project)) or b"null")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _key(request: Request) -> str | None:
    digest = hashlib.sha256(_compiler_digest().encode())
    parts = [str(request.project.resolve()), str(request.root.resolve()), *request.clusters]
    digest.update(json.dumps([parts, list(request.options)]).encode())
    for source in request.sources:
        content = bounded(source)
        if content is None:
            return None  # missing, too large or not a regular file: the full path reports it
        digest.update(str(source).encode() + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()


def _state(request: Request) -> dict[str, str]:
    """A digest of each cluster folder, of G6's two and of the lock, as they are now."""
    folders = (*request.clusters, *GITOPS_FOLDERS)  # a hand-edited _argocd/ is no no-op
    state = {name: _tree_digest(FilesOnDisk(request.root / name)) for name in folders}
    lock = bounded(request.lock)
    state["taugen.lock"] = "" if lock is None else hashlib.sha256(lock).hexdigest()
    return state


def _tree_digest(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    return digest.hexdigest()


def bounded(path: Path, most: int = MAX_BYTES) -> bytes | None:
    """A regular file's bytes, read only when it is within `most` (the input size limit); None for
    anything else. Opened without blocking and without following a last link: a FIFO is refused,
    never waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > most:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as file:
        content = file.read(most + 1)
    return content if len(content) <= most else None


def _warning(problem: Problem) -> list[Any]:
    return [str(problem.path), problem.line, problem.col, problem.rule, problem.message, problem.hint]


def _problem(fields: list[Any]) -> Problem:
    path, line, col, rule, message, hint = fields
    return Problem(Path(path), line, col, rule, message, hint, "warning")


@cache
def _compiler_digest() -> str:
    """taugen's own files: another taugen may compile the same inputs differently."""
    package = Path(taugen.__file__).resolve().parent
    files = sorted(p for p in package.rglob("*") if p.is_file() and not set(p.parts) & set(_SKIPPED))
    digest = hashlib.sha256(taugen.__version__.encode())
    for file in files:
        digest.update(file.relative_to(package).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()
