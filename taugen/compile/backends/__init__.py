"""Scheduler backends, listed explicitly (STYLE.md: never looked up through importlib)."""

from __future__ import annotations

from taugen.compile.backends.base import Backend
from taugen.compile.backends.kai import KaiBackend
from taugen.compile.backends.kueue import KueueBackend

BACKENDS: dict[str, Backend] = {
    "kueue": KueueBackend(),
    "kai": KaiBackend(),
}
