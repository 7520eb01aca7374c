"""The options several commands share: -c/--config, --cluster, --crd, -o/--output, --progress,
and the completion of cluster, gpu-class and profile names (issue 21)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from taugen.cli.stdin import from_stdin

PROJECT_FILE = "taugen.yaml"
FORMAT = "taugen.format"  # ctx.meta key: the deprecated --format's value

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def config_option(help_text: str) -> Decorator:
    """-c/--config: the project file, as every command reads it."""
    return click.option(
        "-c",
        "--config",
        "config",
        type=click.Path(path_type=Path),
        default=PROJECT_FILE,
        show_default=True,
        callback=_find_project,
        help=f"{help_text} Without -c: ./taugen.yaml, else the nearest in a parent folder up to the "
        "repository's root (as git finds .git).",
    )


def _find_project(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """Issue 21: every command works from any subfolder of the project."""
    if param.name is None or ctx.get_parameter_source(param.name) is not click.core.ParameterSource.DEFAULT:
        return value
    from taugen.core.repository import find_project

    here = Path.cwd()
    found = find_project(here)  # issue 32: never above the repository's root
    return value if found is None or found.parent == here else found


def output_option(*formats: str, default: str = "text") -> Decorator:
    """-o/--output FORMAT on every command that prints data (issue 21); `yaml` wherever `json`
    is, the same data. The old `--format` keeps working for one release, with a warning."""
    offered = (*formats, "yaml") if "json" in formats else formats

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        legacy = click.option(
            "--format", type=click.Choice(offered), expose_value=False, hidden=True, callback=_legacy_format
        )
        current = click.option(
            "-o",
            "--output",
            "fmt",
            type=click.Choice(offered),
            default=default,
            show_default=True,
            callback=_output,
            help="How to print the result.",
        )
        return current(legacy(command))

    return decorate


def _legacy_format(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        click.echo("warning: --format is deprecated: use -o/--output (it goes in the next release)", err=True)
        ctx.meta[FORMAT] = value


def _output(ctx: click.Context, param: click.Parameter, value: str) -> str:
    given = (
        param.name is not None
        and ctx.get_parameter_source(param.name) is not click.core.ParameterSource.DEFAULT
    )
    return value if given else str(ctx.meta.get(FORMAT, value))


def crd_option(help_text: str) -> Decorator:
    """--crd FILE|DIR|- (repeatable): upstream CRDs, after the project's `crds:` (issue 30)."""
    return click.option(
        "--crd",
        "crds",
        multiple=True,
        type=click.Path(path_type=Path, exists=True, allow_dash=True),
        callback=from_stdin,
        help=f"{help_text} A CRD file, a folder of them, or - (e.g. `kubectl get crd -o yaml`); repeatable.",
    )


def cluster_option(help_text: str) -> Decorator:
    """--cluster NAME, completing the project's cluster names."""
    return click.option("--cluster", shell_complete=complete_clusters, help=help_text)


def progress_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--progress: stages on stderr after a second, also when stderr is not a terminal (issue 12)."""
    return click.option(
        "--progress",
        is_flag=True,
        help="Show progress on stderr even when it is not a terminal (on a terminal it is shown anyway).",
    )(command)


# Completion runs taugen again on each TAB press: taugen.cli.completion is imported only then.


def complete_clusters(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Issue 21: --cluster completes the project's cluster names."""
    from taugen.cli import completion

    return [n for n in completion.cluster_names(_completion_project(ctx)) if n.startswith(incomplete)]


def complete_gpu_classes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """CLASS completes the gpu-classes the lock knows (every class a build has written)."""
    from taugen.cli import completion

    return [c for c in completion.gpu_classes(_completion_project(ctx)) if c.startswith(incomplete)]


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """PROFILE completes the names of the profiles the project reads."""
    from taugen.cli import completion

    return [n for n in completion.profile_names(_completion_project(ctx)) if n.startswith(incomplete)]


def _completion_project(ctx: click.Context) -> Path | None:
    from taugen.cli import completion

    return completion.find_project(ctx.params.get("config"), Path.cwd())
