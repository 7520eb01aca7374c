"""taugen build: compile the project into out/<cluster>/ and taugen.lock."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from taugen.cli.guard import EXIT_FOUND, EXIT_OK, guarded
from taugen.cli.held import keep
from taugen.cli.options import cluster_option, config_option, crd_option, progress_option
from taugen.cli.output import print_problems
from taugen.cli.progress import progress_on_stderr

if TYPE_CHECKING:  # annotations only: the command imports its modules when it runs
    from taugen.commands.build import BuildResult

MAX_WARNINGS = 50


@click.command("build")
@config_option("Project file.")
@cluster_option("Build only this cluster.")
@click.option("--out", type=click.Path(path_type=Path), help="Output root (default: the project's).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if out/ or the lock is stale.")
@click.option("--allow-quota-decrease", is_flag=True, help="Let GPU quota drop or flavors go (R26).")
@click.option("--allow-stale", is_flag=True, help="Accept an inventory older than the lock (R31).")
@crd_option("Validate the compiled tree against these upstream CRDs too (their schemas and CEL rules).")
@progress_option
@guarded
def build_command(
    config: Path,
    cluster: str | None,
    out: Path | None,
    check: bool,
    allow_quota_decrease: bool,
    allow_stale: bool,
    crds: tuple[Path, ...],
    progress: bool,
) -> int:
    """Compile the project into out/<cluster>/ and taugen.lock."""
    from taugen.context.early import started
    from taugen.core.gcpause import paused_gc

    # from before the imports: the collector would walk the early parse (issue 36: the inventory
    # parsed while the build's modules load, and let go when the build is over)
    with paused_gc(), started(config, check=check, cluster=cluster) as early:
        from taugen.commands.build import BuildOptions, build

        with progress_on_stderr(progress) as say:
            flags = (check, allow_quota_decrease, allow_stale)
            options = BuildOptions(
                config, cluster, out, *flags, crds=crds, progress=say, keep=keep(), early=early
            )
            result = build(options)
    print_problems(result.warnings, MAX_WARNINGS)
    return _report(result, check)


def _report(result: BuildResult, check: bool) -> int:
    from taugen.core.errors import bounded

    if check:
        for line in result.differences:  # they name files and objects of the checkout's tree
            click.echo(bounded(line))
        if result.differences:
            click.echo("out of date: run `taugen build`", err=True)
            return EXIT_FOUND
        click.echo("up to date")
        return EXIT_OK
    click.echo(f"wrote {', '.join(result.written)}" if result.written else "up to date")
    return EXIT_OK
