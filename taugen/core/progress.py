"""Progress of long commands (issue 12): the core names its stages, the CLI decides what to show.

The core never prints (STYLE.md): it calls a `Progress` with a short stage description. The CLI
passes a line that formats the stages for stderr (taugen/cli/progress.py), or `silent`.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str], None]


def silent(stage: str) -> None:
    """The default: nobody is watching."""
