"""How the stages a long command names (taugen.core.progress) are shown on stderr (issue 12)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from taugen.core.progress import Progress, silent

DELAY = 1.0  # seconds: a command that ends sooner shows nothing
_CLEAR = "\r\033[K"


@contextmanager
def progress_on_stderr(forced: bool) -> Iterator[Progress]:
    """Progress on stderr when a person watches (a terminal) or `--progress` asks; silent otherwise."""
    terminal = sys.stderr.isatty()
    if not (terminal or forced):
        yield silent
        return
    line = ProgressLine(lambda words: click.echo(words, err=True, nl=False), terminal)
    line.start()
    try:
        yield line
    finally:
        line.close()


class ProgressLine:
    """Stages for stderr. Nothing is shown until `wake` (the CLI calls it `DELAY` seconds after the
    start, from a timer); then on a terminal one line is rewritten in place, and in a log
    (`--progress`) each stage is one line."""

    def __init__(self, write: Callable[[str], None], terminal: bool) -> None:
        self._write = write
        self._terminal = terminal
        self._lock = threading.Lock()
        self._latest: str | None = None
        self._awake = False
        self._closed = False
        self._shown = False
        self._timer: threading.Timer | None = None

    def __call__(self, stage: str) -> None:
        with self._lock:
            self._latest = stage
            if self._awake:
                self._show()

    def start(self, delay: float = DELAY) -> None:
        self._timer = threading.Timer(delay, self.wake)
        self._timer.daemon = True
        self._timer.start()

    def wake(self) -> None:
        with self._lock:
            self._awake = not self._closed
            if self._awake and self._latest is not None:
                self._show()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._awake, self._closed = False, True
            if self._terminal and self._shown:
                self._write(_CLEAR)

    def _show(self) -> None:
        assert self._latest is not None
        self._write(f"{_CLEAR}taugen: {self._latest} …" if self._terminal else f"taugen: {self._latest}\n")
        self._shown = True
