"""Scheduler backends, listed explicitly (STYLE.md: never looked up through importlib)."""

from __future__ import annotations

from taugen.backends.base import Backend
from taugen.backends.kai import KaiBackend
from taugen.backends.kueue import KueueBackend

BACKENDS: dict[str, Backend] = {
    "kueue": KueueBackend(),
    "kai": KaiBackend(),
}
