"""A run's commands: taugen profiles, render and preflight (SPEC §7, R30)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_FOUND, EXIT_OK, guarded
from taugen.cli.options import cluster_option, complete_profiles, config_option, output_option
from taugen.cli.output import print_data, print_problems
from taugen.cli.stdin import from_stdin
from taugen.core import choices


@click.command("profiles")
@click.argument("names", nargs=-1, metavar="[PROFILE]...", shell_complete=complete_profiles)
@config_option("Project file.")
@cluster_option("Only this cluster.")
@output_option("table", "json", default="table")
@guarded
def profiles_command(names: tuple[str, ...], config: Path, cluster: str | None, fmt: str) -> int:
    """List each cluster's profiles (or only PROFILE...): resolved policy and readiness (R30)."""
    from taugen.commands.profiles import as_json, as_table, profile_tables

    tables = profile_tables(config, cluster, names)
    print_problems(t.stale for t in tables if t.stale is not None)
    print_data(fmt, as_json, as_table, tables)
    return EXIT_OK


@click.command("render")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path), callback=from_stdin)
@config_option("Project file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(choices.RENDER_FORMATS),
    default="manifest",
    show_default=True,
    help="manifest: an applyable Job (and torchrun Service); patch: only the contract fragment.",
)
@guarded
def render_command(run_file: Path, config: Path, fmt: str) -> int:
    """Render a RUN file into its scheduler's contract (§7, K4, K5); warnings go to stderr."""
    from taugen.commands.render import render_run

    output, warnings = render_run(run_file, config, "patch" if fmt == "patch" else "manifest")
    print_problems(warnings)
    click.echo(output, nl=False)
    return EXIT_OK


@click.command("preflight")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path), callback=from_stdin)
@config_option("Project file.")
@output_option(*choices.REPORT_FORMATS)
@guarded
def preflight_command(run_file: Path, config: Path, fmt: str) -> int:
    """Say whether a RUN is eligible in its cluster: exit 0 eligible, 1 not eligible.

    Eligible only: capacity is reserved at admission, never by preflight.
    """
    from taugen.commands.preflight import report as run_report
    from taugen.commands.preflight.check import preflight_run

    result, warnings = preflight_run(run_file, config)
    print_problems(warnings)  # a deprecated profile; the placement is in the answer
    print_data(fmt, run_report.as_json, run_report.as_text, result)
    return EXIT_OK if result.eligible else EXIT_FOUND
