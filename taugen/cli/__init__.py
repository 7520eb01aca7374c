"""The command line: parses arguments, calls the core, prints, maps errors to exit codes.

The only package that imports click (STYLE.md: the CLI is a thin shell). `app` is the group,
`ending` runs it and ends the process (`run`: the console script), `guard` the exit codes,
`options`, `stdin`, `output` and `progress` what commands share, one module per verb family
beside them; `completion` is imported only on a TAB press, and each command imports the core
it calls only when it runs (issue 21: start-up is measured).
"""

from __future__ import annotations

from taugen.cli.app import main
from taugen.cli.ending import run

__all__ = ("main", "run")
