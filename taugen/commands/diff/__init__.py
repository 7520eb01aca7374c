"""`taugen diff` as people and pull requests read it: text, JSON and a markdown comment; the
change computation is the engine taugen.engines.changes."""

from taugen.engines.changes.engine import DiffOptions, DiffResult, diff

__all__ = ["DiffOptions", "DiffResult", "diff"]
