"""One build of a project, or of an output root, at a time (issue 7, issue 17).

A build that writes holds an exclusive flock on the project folder and on the folder that
holds the output root (where it stages), so two projects sharing an output root cannot lose
each other's update; `validate` holds a shared one on the same folders, so it never reads a
tree halfway through a swap. No lock file is left behind, and the kernel releases the locks
when a process dies, however it dies.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


@contextmanager
def exclusive(*folders: Path, shared: bool = False) -> Iterator[None]:
    """Hold a flock on every existing folder, each once, in one global order (no deadlock
    between two processes locking the same folders)."""
    with ExitStack() as stack:
        for folder in _distinct(folders):
            fd = os.open(folder, os.O_RDONLY)
            stack.callback(os.close, fd)  # closing releases the lock
            fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)  # waits for a running build
        yield


def _distinct(folders: tuple[Path, ...]) -> list[Path]:
    seen: dict[tuple[int, int], Path] = {}
    for folder in folders:
        try:
            info = folder.stat()
        except OSError:
            continue
        if folder.is_dir():
            seen.setdefault((info.st_dev, info.st_ino), folder)
    return [seen[k] for k in sorted(seen)]
