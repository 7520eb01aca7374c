"""Half of a large job in a forked child (issue 36): a 100,000-node build's node-label files are
built by two processes, one per core, each from the same loaded and resolved inputs.

The child is a fork: it starts with everything the parent holds, builds its half, sends the
result back pickled through a pipe and ends without running anything of the parent's at exit.
Nothing here decides what a result is: a caller that gets None does the whole job itself, so a
missing fork (not Linux), a single core or a child that failed changes the time, never the output.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable
from typing import TypeVar

Part = TypeVar("Part")
Result = TypeVar("Result")


def forkable() -> bool:
    """Linux with at least two cores to run on: elsewhere a fork of a process holding native
    libraries is not safe (macOS), not there (Windows) or no faster (one core)."""
    return sys.platform == "linux" and len(os.sched_getaffinity(0)) > 1


def in_two(work: Callable[[Part], Result], first: Part, second: Part) -> tuple[Result, Result] | None:
    """work(first) here and work(second) in a forked child, at once; None when the child gave no
    result (the caller then does the work itself). An error of work(first) is raised, the child
    ended first."""
    if not forkable():
        return None
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the child: it never returns
        _child(work, second, read, write)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        try:
            mine = work(first)
            data = pipe.read()
        except BaseException:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        return None
    return mine, pickle.loads(data)  # our own child's bytes, through our own pipe


def _child(work: Callable[[Part], Result], part: Part, read: int, write: int) -> None:
    status = 1
    try:
        os.close(read)
        data = pickle.dumps(work(part), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        status = 0
    except BaseException:  # any failure is the parent's to redo: it gets no result
        pass
    finally:
        os._exit(status)
