"""A large inventory read and parsed while `taugen build` imports its modules (issue 36).

Before a build imports the half second of modules it needs, this reads the project file for the
inventories its clusters name and hands the largest, if large, to native.start: yaml-rs parses
it on a thread (it lets go of the GIL while parsing) and a forked child bounds its depth and
scans it, while the imports go on. The command holds what was started (native.Early) and hands
it to the build (BuildOptions.early), whose loader reads the inventory as always and takes that
work only for the very same text (read_text, native.load_all): what is built, reported and
refused is the same either way.

Everything here is a guess that may be wrong at no cost: a project file it cannot read simply,
an inventory that is not a regular file inside the project, too small, too large or not UTF-8,
starts nothing, and the loader then reads and reports as before.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from taugen.core.errors import InputError
from taugen.load import limits, native
from taugen.write.cache import bounded, entry_of

PROJECT_BYTES = 1 << 20  # a project file is a few kilobytes; a larger one is left to the loader


@contextmanager
def started(project_file: Path, *, check: bool, cluster: str | None = None) -> Iterator[native.Early | None]:
    """`start`'s early start, for the build to take, or None; what it did not take is let go
    (its child ended and reaped) when the block ends, however it ends."""
    early = start(project_file, check=check, cluster=cluster)
    try:
        yield early
    finally:
        if early is not None:
            early.end()


def start(project_file: Path, *, check: bool, cluster: str | None = None) -> native.Early | None:
    """The parse of the largest inventory the project names (`cluster`'s, when the build is of
    one cluster), started when it is large; None when nothing was started, as also when the
    no-op cache may answer the build (R33: a build, not `--check`, of a project with an entry):
    then the parse would be for nothing, and its work beside the imports slowed a no-op build
    from 0.5 to 1.2 s. What is started is ended with `Early.end` once the build is over."""
    if not check and entry_of(project_file).is_file():
        return None
    try:
        root = project_file.resolve().parent
        paths = [root / name for name in _inventories(_read(project_file, PROJECT_BYTES), cluster)]
        sized = [(info.st_size, path) for path in paths if (info := _inside(root, path)) is not None]
        if not sized:
            return None
        size, path = max(sized)
        if size < native.BESIDE_FROM:
            return None
        text = _read(path, limits.MAX_BYTES)
    except (OSError, ValueError, RuntimeError, InputError):  # unreadable, not UTF-8, a link loop
        return None
    return native.start(text)


def _read(path: Path, most: int) -> str:
    """A regular file's text, at most `most` bytes long (write/cache.bounded: a FIFO or a link in
    its place is refused, never waited on or followed); OSError otherwise, ValueError if not UTF-8."""
    raw = bounded(path, most)
    if raw is None:
        raise OSError(f"{path} is not a regular file of at most {most} bytes")
    return raw.decode("utf-8-sig")


def _inventories(project: str, cluster: str | None) -> list[str]:
    """The inventory paths of the project's clusters (of the one named `cluster`, when given),
    read with the loader's own guards."""
    limits.check_text(Path("taugen.yaml"), project)  # no nesting that could crash yaml-rs
    if "*" in project:  # an alias yaml-rs would expand: the loader reads it
        return []
    data: Any = native.parse(project)
    clusters = data.get("clusters") if isinstance(data, dict) else None
    if not isinstance(clusters, list):
        return []
    chosen = [c for c in clusters if isinstance(c, dict) and cluster in (None, c.get("name"))]
    names = [c.get("inventory") for c in chosen]
    return [n for n in names if isinstance(n, str) and n]


def _inside(root: Path, path: Path) -> os.stat_result | None:
    """The file's stat when it is a regular file inside the project (as the loader requires,
    links resolved); None otherwise."""
    real = path.resolve()
    if root not in real.parents:
        return None
    info = real.stat()
    return info if stat.S_ISREG(info.st_mode) else None
