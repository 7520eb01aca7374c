"""The `taugen` group: every command, listed here (an explicit registry, as yamllint's rules)."""

from __future__ import annotations

import click

from taugen import __version__
from taugen.cli import build, diff, drift, explain, init, inventory, report, runs, schema, simulate, validate

COMMANDS = (
    build.build_command,
    schema.schema_command,
    validate.validate_command,
    diff.diff_command,
    runs.profiles_command,
    runs.render_command,
    runs.preflight_command,
    report.report_command,
    explain.explain_group,
    inventory.inventory_group,
    drift.drift_command,
    simulate.simulate_command,
    init.init_command,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, commands=COMMANDS)
@click.version_option(__version__, prog_name="taugen")
def main() -> None:
    """Compile a GPU cluster inventory into Kueue manifests for GitOps."""
