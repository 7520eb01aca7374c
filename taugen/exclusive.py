"""One build of a project at a time: a second build waits for the first (issue 7)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive(folder: Path) -> Iterator[None]:
    """Hold an exclusive flock on the project folder itself: no lock file is left behind, and
    the kernel releases the lock when a build dies, however it dies."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # waits for a running build of the same project
        yield
    finally:
        os.close(fd)  # closing releases the lock
