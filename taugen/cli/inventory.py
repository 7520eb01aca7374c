"""taugen inventory show|import: a cluster's inventory summarized, or refreshed from the live one."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.cli.options import cluster_option, config_option, output_option
from taugen.cli.output import print_data
from taugen.cli.stdin import from_stdin


@click.command("show")
@config_option("Project file.")
@cluster_option("The cluster (needed when the project has several).")
@output_option("table", "json", default="table")
@guarded
def inventory_show_command(config: Path, cluster: str | None, fmt: str) -> int:
    """Hosts, GPUs and Ready hosts per site and domain; quota, slots and high-water mark per class."""
    from taugen.commands.inventory import show as inventory_show
    from taugen.context.session import load_view

    summary = inventory_show.summarize(load_view(config, cluster))
    print_data(fmt, inventory_show.as_json, inventory_show.as_table, summary)  # a table by default, piped too
    return EXIT_OK


@click.command("import")
@click.argument("nodelist", metavar="NODELIST", type=click.Path(path_type=Path), callback=from_stdin)
@click.option(
    "--into",
    type=click.Path(path_type=Path),
    help="The inventory to refresh (default: the one the project names for the cluster).",
)
@config_option("Project file (to find the inventory when --into is not given).")
@cluster_option("The cluster whose inventory is refreshed (without --into).")
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@output_option("text", "json")
@guarded
def inventory_import_command(
    nodelist: Path, into: Path | None, config: Path, cluster: str | None, dry_run: bool, fmt: str
) -> int:
    """Refresh an inventory from `kubectl get nodes -o yaml|json`, keeping what was written by hand."""
    from taugen.commands.inventory import report as import_report
    from taugen.commands.inventory.refresh import import_nodes, project_inventory

    target = into if into is not None else project_inventory(config, cluster)
    result = import_nodes(nodelist, target, dry_run)
    shown = _shown_path(target)
    print_data(
        fmt, lambda r: import_report.as_json(r, shown), lambda r: import_report.as_text(r, shown), result
    )
    return EXIT_OK


def _shown_path(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@click.group("inventory", commands=[inventory_show_command, inventory_import_command])
def inventory_group() -> None:
    """Summarize a cluster's inventory, or refresh it from the live cluster."""
