"""taugen report: one self-contained HTML page of the topology, capacity and a change on it."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.cli.options import cluster_option, config_option, progress_option
from taugen.cli.progress import progress_on_stderr
from taugen.cli.stdin import from_stdin


@click.command("report")
@config_option("Project file.")
@cluster_option("Only this cluster.")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default="taugen-report.html",
    show_default=True,
    help="The HTML file to write (self-contained: opens from disk, offline).",
)
@click.option("--diff", "base", metavar="BASE", help="Highlight what changes from BASE, as taugen diff BASE.")
@click.option(
    "--simulate",
    "workloads",
    metavar="WORKLOADS",
    type=click.Path(path_type=Path),
    callback=from_stdin,
    help="Draw where the runs of a WorkloadSet land (`taugen simulate`).",
)
@progress_option
@guarded
def report_command(
    config: Path, cluster: str | None, out: Path, base: str | None, workloads: Path | None, progress: bool
) -> int:
    """Write one HTML page: the topology tree, capacity per class, and a change or simulation on it."""
    from taugen.commands.report.command import ReportOptions, write_report

    with progress_on_stderr(progress) as say:
        written = write_report(ReportOptions(config, cluster, out, base, workloads, Path.cwd(), say))
    click.echo(f"wrote {written}")
    return EXIT_OK
