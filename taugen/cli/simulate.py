"""taugen simulate: what Kueue would admit, and where (SPEC §9); --fleet over MultiKueue (M4)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.cli.options import cluster_option, config_option, output_option
from taugen.cli.output import print_data
from taugen.cli.stdin import from_stdin
from taugen.core import choices


@click.command("simulate")
@click.argument("workloads", metavar="WORKLOADS", type=click.Path(path_type=Path), callback=from_stdin)
@config_option("Project file.")
@cluster_option("The cluster (default: the set's, or the project's only one).")
@output_option(*choices.REPORT_FORMATS)
@click.option("--tree", type=click.Path(path_type=Path), help="A compiled out/<cluster>/ folder to use.")
@click.option(
    "--fleet",
    is_flag=True,
    help="Admit on the MultiKueue manager, then dispatch each run to the first worker that admits it (M4).",
)
@click.option(
    "--cycles",
    type=click.IntRange(min=1),
    help="Run at most N of Kueue's scheduling cycles (R52; default: until a cycle changes nothing).",
)
@guarded
def simulate_command(
    workloads: Path,
    config: Path,
    cluster: str | None,
    fmt: str,
    tree: Path | None,
    fleet: bool,
    cycles: int | None,
) -> int:
    """What Kueue would admit, and where (SPEC §9): exit 0 whatever it finds, 2 on bad input."""
    from taugen.commands.simulate import SimulateOptions, run_simulation
    from taugen.commands.simulate import report as sim_report

    if fleet:
        if cluster is not None or tree is not None or cycles is not None:
            raise click.UsageError(
                "--fleet simulates the project's manager and workers: drop --cluster, --tree and --cycles"
            )
        from taugen.commands.simulate import fleet_report
        from taugen.commands.simulate.fleet import run_fleet

        print_data(fmt, fleet_report.as_json, fleet_report.as_text, run_fleet(workloads, config))
        return EXIT_OK
    sim = run_simulation(SimulateOptions(workloads, config, cluster, tree, cycles))
    print_data(fmt, sim_report.as_json, sim_report.as_text, sim)
    return EXIT_OK
