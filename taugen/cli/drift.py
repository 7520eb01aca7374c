"""taugen drift: a live node list against the compiled tree and the inventory (issue 11)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_FOUND, EXIT_OK, guarded
from taugen.cli.options import cluster_option, config_option, output_option
from taugen.cli.output import print_data, print_problems
from taugen.cli.stdin import from_stdin


@click.command("drift")
@click.argument("nodelist", metavar="NODELIST", type=click.Path(path_type=Path), callback=from_stdin)
@config_option("Project file.")
@cluster_option("The cluster (needed when the project has several).")
@output_option("text", "json")
@guarded
def drift_command(nodelist: Path, config: Path, cluster: str | None, fmt: str) -> int:
    """Compare a live NODELIST with the compiled tree and the inventory: exit 1 on drift."""
    from taugen.commands.drift import report as drift_report
    from taugen.commands.drift.command import drift

    found = drift(nodelist, config, cluster)
    print_problems(found.warnings)
    print_data(fmt, drift_report.as_json, drift_report.as_text, found)
    return EXIT_FOUND if found.drifted else EXIT_OK
