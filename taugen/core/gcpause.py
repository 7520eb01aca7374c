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
    """Pause the collector; at the end, what the pause built is put in the oldest generation.

    Left in the youngest, everything still held when the pause ends (validate's report holds its
    whole tree) was walked by the collector's next pass, and again by the next two (issue 36: 0.2
    s of a 100,000-node validate). `gc.freeze()` then `gc.unfreeze()` moves every tracked object
    to the oldest generation, in constant time, and zeroes the young count: nothing is made
    immortal, and a full collection still looks at them all. Objects someone else froze stay
    frozen: then the pause ends as it began."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
