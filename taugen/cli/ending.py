"""How a `taugen` process ends: with its exit code, without freeing what the command built.

A large command builds millions of objects. Freed one by one when the command returns, then
again by the interpreter's own teardown, they cost a 100,000-node build about 0.3 s of its 6
(issue 36), for memory the process gives back whole a moment later. So the console script and
`python -m taugen` run the group through `run`: the invocation's context carries a `Held` list
that a command hands what it built to (held.keep, given down as a callable: nothing below the
CLI holds it), and the process ends through `os._exit` once the standard streams are flushed.
Nothing is written after that: every file a command writes is closed before it returns, and no
thread, child or `atexit` hook of taugen's is left by then.

Called any other way (click's CliRunner in the tests, `main` imported by a caller), the context
carries no `Held`: `keep` keeps nothing, and what a command built is freed as it returns.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

from taugen.cli.app import main
from taugen.cli.held import Held

BROKEN_PIPE = 120  # the interpreter's status when flushing stdout at exit fails (a reader went away)


def run(prog_name: str = "taugen") -> NoReturn:
    """The `taugen` command line, then the end of the process with its exit code."""
    held = Held()
    try:
        main(prog_name=prog_name, obj=held)
        code: object = 0
    except SystemExit as end:  # click and `guarded` end every invocation this way
        code = end.code
    if code is not None and not isinstance(code, int):
        raise SystemExit(code)  # a message for the interpreter to print: click never gives one
    try:
        sys.stdout.flush()
    except OSError:
        code = BROKEN_PIPE
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code or 0)
