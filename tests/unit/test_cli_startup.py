"""Issue 21: `taugen --version`, `--help` and completion import click and nothing heavy; each
command imports its modules when it runs. The choices the CLI offers are the commands' own."""

from __future__ import annotations

import subprocess
import sys

from taugen.commands.preflight.report import FORMATS as PREFLIGHT_FORMATS
from taugen.commands.simulate.report import FORMATS as SIMULATE_FORMATS
from taugen.core import choices
from taugen.engines.changes.engine import FAIL_ON
from taugen.engines.changes.risks import IDS
from taugen.engines.runs.render import FORMATS as RENDER_FORMATS
from taugen.models.schemas import KINDS
from taugen.validate.report import RENDERERS

# taugen/cli/'s modules at start-up: all but `completion`, which a TAB press imports (issue 33)
CLI_AT_START = [
    f"taugen.cli.{name}"
    for name in [
        "app",
        "build",
        "diff",
        "drift",
        "ending",
        "explain",
        "guard",
        "held",
        "init",
        "inventory",
        "options",
        "output",
        "progress",
        "report",
        "runs",
        "schema",
        "simulate",
        "stdin",
        "validate",
    ]
]
HEAVY = ("pydantic", "ruamel", "deepdiff", "yaml", "jsonschema", "jsonschema_rs", "kubernetes_validate")


def test_importing_the_cli_imports_nothing_heavy() -> None:
    probe = (
        "import sys, taugen.cli\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('taugen')))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    heavy, own = out.splitlines()
    assert heavy == "[]"
    expected = [
        "taugen",
        "taugen.core",
        "taugen.core.choices",
        "taugen.cli",
        *CLI_AT_START,
        "taugen.core.progress",
    ]
    assert own == str(sorted(expected))


def test_the_choices_are_the_commands_own() -> None:
    assert tuple(sorted(KINDS)) == choices.INPUT_KINDS
    assert choices.RISK_IDS == IDS and choices.FAIL_ON == FAIL_ON
    assert choices.RENDER_FORMATS == RENDER_FORMATS
    assert choices.REPORT_FORMATS == PREFLIGHT_FORMATS == SIMULATE_FORMATS
    assert tuple(sorted(RENDERERS)) == choices.VALIDATE_OUTPUTS
