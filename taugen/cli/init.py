"""taugen init: scaffold a config repository (SPEC §13); never overwrites."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.core import choices


@click.command("init")
@click.argument("directory", metavar="[DIR]", default=".", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--cluster", default=choices.DEFAULT_CLUSTER, show_default=True, help="The first cluster's name."
)
@click.option(
    "--repo-url",
    default=choices.DEFAULT_REPO_URL,
    show_default=True,
    help="This repository's Git URL (Argo CD).",
)
@click.option(
    "--platform",
    type=click.Choice(choices.PLATFORMS),
    default="aks",
    show_default=True,
    help="Where the cluster runs: its rules, topology labels and GPU taints (SPEC §13).",
)
@click.option(
    "--fleet",
    is_flag=True,
    help="A MultiKueue fleet: the manager fleet-hub and the workers CLUSTER and CLUSTER-2 (SPEC §11).",
)
@guarded
def init_command(
    directory: Path, cluster: str, repo_url: str, platform: choices.Platform, fleet: bool
) -> int:
    """Scaffold a config repository in DIR (default: here). Never overwrites: exit 2, nothing written.

    Writes the project, an inventory to fill in, rules, JSON Schemas, CI (GitHub, GitLab,
    pre-commit), Argo CD and Flux files.
    """
    from taugen.commands.init import init

    written = init(directory, cluster, repo_url, platform, fleet)
    click.echo(f"wrote {len(written)} files in {directory}:")
    for rel in written:
        click.echo(f"  {rel}")
    click.echo(
        f"next: put the fleet in inventory/{cluster}.yaml "
        f"(kubectl get nodes -o yaml > inventory/{cluster}.yaml), then `taugen build` and commit"
    )
    return EXIT_OK
