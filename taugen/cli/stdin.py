"""`-` is standard input wherever a command reads a file it does not write (issue 21).

`kubectl kustomize … | taugen validate -`: the stream is read once into a private file, and
output names that file `<stdin>`. The file's path is kept on click's context (its `meta`, shared
by every context of one invocation), never in a module global: one invocation, one copy.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import click

STDIN = "-"
COPY = "taugen.stdin"  # ctx.meta key: this invocation's copy of standard input


def from_stdin(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """An option's or argument's callback: `-` becomes the copy of standard input. A path stays a
    Path, a tree source (`diff`) a string."""
    values = value if isinstance(value, tuple) else (value,)
    if not any(v is not None and str(v) == STDIN for v in values):
        return value
    if ctx.meta.get(COPY) is not None:  # a stream is read once
        raise click.BadParameter("standard input is already another argument's `-`", ctx, param)
    folder = Path(tempfile.mkdtemp(prefix="taugen-stdin-"))
    # on the root context: a usage error after this callback (a second `-`) never closes ctx (issue 32)
    ctx.find_root().call_on_close(partial(shutil.rmtree, folder, ignore_errors=True))
    copy = ctx.meta[COPY] = folder / "stdin.yaml"
    _copy_stdin(copy, ctx, param)
    swapped = tuple(type(v)(copy) if v is not None and str(v) == STDIN else v for v in values)
    return swapped if isinstance(value, tuple) else swapped[0]


def _copy_stdin(copy: Path, ctx: click.Context, param: click.Parameter) -> None:
    """At most the input size limit (load/limits.py) and one byte more is read: a stream past
    it is refused there, never read whole first (issue 32: 2 GB on stdin was a MemoryError)."""
    from taugen.load.limits import MAX_BYTES

    left = MAX_BYTES + 1
    with copy.open("wb") as out:
        while left and (chunk := sys.stdin.buffer.read(min(left, 1 << 20))):
            out.write(chunk)
            left -= len(chunk)
    if not left:
        limit = f"{MAX_BYTES:,} bytes ({MAX_BYTES >> 20} MiB)"
        raise click.BadParameter(f"standard input is larger than an input may be, {limit}", ctx, param)


def named(text: str) -> str:
    """Output that names this invocation's copy of standard input names it `<stdin>`."""
    ctx = click.get_current_context(silent=True)
    copy = None if ctx is None else ctx.meta.get(COPY)
    return text if copy is None else text.replace(str(copy), "<stdin>")
