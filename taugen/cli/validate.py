"""taugen validate: manifest files, folders or kustomizations (default: the project's out/)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_FOUND, EXIT_OK, guarded
from taugen.cli.held import keep
from taugen.cli.options import config_option, crd_option
from taugen.cli.output import print_data, print_text
from taugen.cli.stdin import from_stdin
from taugen.core import choices


@click.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), callback=from_stdin)
@config_option("Project whose output tree is validated when no PATH is given.")
@crd_option("Validate their kinds against these upstream CRDs (schemas and CEL rules) instead.")
@click.option(
    "--kubernetes-version",
    default=choices.DEFAULT_KUBERNETES_VERSION,
    show_default=True,
    help="Kubernetes version of the built-in kinds' schemas.",
)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Choice((*choices.VALIDATE_OUTPUTS, "yaml")),
    default="text",
    show_default=True,
    help="How to print the report (yaml: the json report's data).",
)
@click.option(
    "--kubeconform",
    "with_kubeconform",
    is_flag=True,
    help="Also run kubeconform (when on PATH) on schemas from the upstream CRDs and merge its verdicts.",
)
@click.option(
    "--server",
    "with_server",
    is_flag=True,
    help="Also send every object to your cluster as a server-side dry run (dryRun=All: never a write).",
)
@click.option("--context", help="With --server: the kubeconfig context (default: its current one).")
@click.option(
    "--kubeconfig",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="With --server: the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).",
)
@guarded
def validate_command(
    paths: tuple[Path, ...],
    config: Path,
    crds: tuple[Path, ...],
    kubernetes_version: str,
    output: str,
    with_kubeconform: bool,
    with_server: bool,
    context: str | None,
    kubeconfig: Path | None,
) -> int:
    """Validate manifest files, folders or kustomizations (default: the project's out/)."""
    from taugen.commands.validate import ValidateOptions, validate_paths
    from taugen.validate.kubeconform import run_kubeconform
    from taugen.validate.report import RENDERERS
    from taugen.validate.server import ServerTarget, dry_run

    if (context or kubeconfig) and not with_server:
        raise click.UsageError("--context and --kubeconfig go with --server")
    report = validate_paths(ValidateOptions(paths, config, crds, kubernetes_version))
    keep()(report)  # every object of the tree: held to the end, not freed one by one (cli/ending.py)
    if with_kubeconform:
        report, note = run_kubeconform(report, crds, kubernetes_version)
        click.echo(note, err=True)
    if with_server:
        report, note = dry_run(report, ServerTarget(kubeconfig, context))
        click.echo(note, err=True)
    if output == "yaml":
        print_data(output, lambda r: RENDERERS["json"](r, Path.cwd()), str, report)
    else:
        print_text(RENDERERS[output](report, Path.cwd()))
    return EXIT_OK if report.valid else EXIT_FOUND
