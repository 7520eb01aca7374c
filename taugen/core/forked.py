"""Part of a large job in a forked child (issue 36): a 100,000-node build's node-label files are
built by two processes, one per core, each from the same loaded and resolved inputs, and a large
inventory is scanned by one while the other parses it.

The child is a fork: it starts with everything the parent holds, does its part, sends the
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
from dataclasses import dataclass
from functools import partial
from typing import Any, BinaryIO, Generic, TypeVar

Part = TypeVar("Part")
Result = TypeVar("Result")
Other = TypeVar("Other")


def forkable() -> bool:
    """Linux with at least two cores to run on: elsewhere a fork of a process holding native
    libraries is not safe (macOS), not there (Windows) or no faster (one core)."""
    return sys.platform == "linux" and len(os.sched_getaffinity(0)) > 1


def in_two(work: Callable[[Part], Result], first: Part, second: Part) -> tuple[Result, Result] | None:
    """work(first) here and work(second) in a forked child, at once; None when the child gave no
    result (the caller then does the work itself). An error of work(first) is raised, the child
    ended first."""
    child = _spawn(partial(work, second))
    if child is None:
        return None
    mine, theirs = _joined(child, partial(work, first))
    return None if theirs is None else (mine, theirs)


def beside(here: Callable[[], Result], there: Callable[[], Other]) -> tuple[Result, Other | None]:
    """here() in this process and there() in a forked child, at once (issue 36: a large
    inventory's scan beside its parse); there's result is None when no child gave it (no fork,
    one core, a failed child): the caller then runs there() itself. An error of here() is raised,
    the child ended first."""
    child = _spawn(there)
    if child is None:
        return here(), None
    return _joined(child, here)


class Started(Generic[Result]):
    """work() run by a forked child since it was started; its result is asked for later, once."""

    def __init__(self, child: _Child) -> None:
        self._child: _Child | None = child
        self._result: Result | None = None

    def result(self) -> Result | None:
        """The child's result, waited for; None when it gave none (the caller then does the work)."""
        if (child := self._child) is not None:
            with child.pipe as pipe:
                theirs = _received(pipe)
            _, status = os.waitpid(child.pid, 0)
            self._child = None  # reaped: an `end` from here on has nothing to end
            self._result = theirs if status == 0 else None
        return self._result

    def end(self) -> None:
        """Its result is not wanted: the child is ended and reaped, if it was not yet."""
        if (child := self._child) is not None:
            self._child = None
            child.pipe.close()
            os.kill(child.pid, signal.SIGKILL)
            os.waitpid(child.pid, 0)


def started(work: Callable[[], Result]) -> Started[Result] | None:
    """work() in a forked child from now on (issue 36: an inventory's scan while `build` imports
    its modules); None when no child can be had, as for `beside`."""
    child = _spawn(work)
    return None if child is None else Started(child)


@dataclass(frozen=True)
class _Child:
    pid: int
    pipe: BinaryIO  # the read end: the child's pickled result, or nothing


def _spawn(work: Callable[[], object]) -> _Child | None:
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
        _child(work, read, write)
    os.close(write)
    return _Child(pid, os.fdopen(read, "rb"))


def _joined(child: _Child, here: Callable[[], Result]) -> tuple[Result, Any]:
    """here()'s result and the child's, None when it gave none; the child is always reaped."""
    theirs: Started[Any] = Started(child)
    try:
        return here(), theirs.result()
    except BaseException:
        theirs.end()
        raise


def _received(pipe: BinaryIO) -> Any:
    """The child's result, unpickled as it comes through the pipe (issue 36: not read whole
    first, which held its 34 MB twice at the build's peak); None when nothing whole came."""
    try:
        return pickle.load(pipe)  # our own child's bytes, through our own pipe
    except Exception:  # nothing, or a result cut short by a child that failed while writing it
        return None


def _child(work: Callable[[], object], read: int, write: int) -> None:
    status = 1
    try:
        os.close(read)
        result = work()
        with os.fdopen(write, "wb") as pipe:  # pickled as it is written: never whole in memory
            pickle.dump(result, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException:  # any failure is the parent's to redo: it gets no result
        pass
    finally:
        os._exit(status)
