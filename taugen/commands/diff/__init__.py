"""`taugen diff` as people and pull requests read it: text, JSON and a markdown comment; the
change computation is the engine taugen.engines.changes."""

from __future__ import annotations

from taugen.core.gcpause import paused_gc
from taugen.engines.changes import engine
from taugen.engines.changes.engine import DiffOptions, DiffResult

__all__ = ["DiffOptions", "DiffResult", "diff"]


def diff(options: DiffOptions) -> DiffResult:
    """The engine's diff with the collector paused, as a build pauses it (core/gcpause.py): on two
    100,000-node trees it walked their parsed objects again and again, 1.6 s of a diff (issue 36)."""
    with paused_gc():
        return engine.diff(options)
