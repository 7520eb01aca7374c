"""Pause Python's cyclic garbage collector around the heavy stages.

Parsed YAML, models and manifests hold no reference cycles, so reference counting frees them;
the cyclic collector only walks the millions of young objects a large inventory creates, over
and over (issue 6: a third of a 10,000-node build). The floor the benchmarks compare against
pauses it the same way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
