"""taugen diff: compare two output trees, with their risks (and simulated runs, --simulate)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from taugen.cli.guard import EXIT_FOUND, EXIT_OK, guarded
from taugen.cli.options import config_option, crd_option, output_option
from taugen.cli.output import print_data, print_text
from taugen.cli.stdin import from_stdin
from taugen.core import choices


@click.command("diff")
@click.argument("base", callback=from_stdin)
@click.argument("head", required=False, callback=from_stdin)
@config_option("Project whose output root is compared when BASE or HEAD names no path.")
@output_option("text", "markdown", "json")
@click.option(
    "--fail-on",
    type=click.Choice(choices.FAIL_ON),
    help="Exit 1 on any change, on any risk, or on a risk of one class.",
)
@click.option(
    "--simulate",
    "workloads",
    type=click.Path(path_type=Path),
    callback=from_stdin,
    help="A WorkloadSet: simulate it on both trees and show the runs that change (SPEC §9).",
)
@crd_option("Check updates against these upstream CRDs' transition rules (immutable fields).")
@guarded
def diff_command(
    base: str,
    head: str | None,
    config: Path,
    fmt: str,
    fail_on: str | None,
    workloads: Path | None,
    crds: tuple[Path, ...],
) -> int:
    """Compare two output trees: BASE and HEAD are folders, files, git:REV or git:REV:PATH.

    HEAD defaults to the working tree. Git revisions are read without a checkout.
    """
    from taugen.commands.diff import DiffOptions, diff
    from taugen.commands.diff.markdown import markdown
    from taugen.commands.diff.render import as_json, text

    result = diff(DiffOptions(base, head, Path.cwd(), config, workloads, crds))
    if fmt == "markdown":
        print_text(markdown(result))
    else:  # color only on a terminal, as git does; the words are the same
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        print_data(fmt, as_json, lambda r: text(r, color), result)
    return EXIT_FOUND if result.crosses(fail_on) else EXIT_OK
