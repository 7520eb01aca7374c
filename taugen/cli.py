"""The command line: parses arguments, calls the core, prints, maps errors to exit codes."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from taugen import __version__
from taugen.build import BuildOptions, BuildResult, build
from taugen.diff.command import FAIL_ON, DiffOptions, diff
from taugen.diff.markdown import markdown
from taugen.diff.render import as_json, text
from taugen.errors import FoundProblems, InputError, Problem, TaugenError
from taugen.input_schemas import KINDS, schema_files
from taugen.kueue_api import write_kueue_schemas
from taugen.runs import report as run_report
from taugen.runs.context import resolve_run
from taugen.runs.placement import run_warnings
from taugen.runs.preflight import preflight
from taugen.runs.profiles import as_table, profile_tables
from taugen.runs.render import FORMATS as RENDER_FORMATS
from taugen.runs.render import render
from taugen.validate.command import ValidateOptions, validate_paths
from taugen.validate.kubeconform import run_kubeconform
from taugen.validate.report import RENDERERS
from taugen.validate.schemas import DEFAULT_KUBERNETES_VERSION

EXIT_OK, EXIT_FOUND, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
ISSUES = "https://github.com/tau-azure/taugen/issues"
MAX_WARNINGS = 50


def _print_problems(problems: Iterable[Problem], limit: int | None = None) -> None:
    items = list(problems)
    shown = items if limit is None else items[:limit]
    for problem in shown:
        click.echo(problem.render(Path.cwd()), err=True)
    if len(items) > len(shown):
        click.echo(f"… and {len(items) - len(shown)} more", err=True)


def _guarded(command: Callable[..., int]) -> Callable[..., None]:
    """One place maps errors to exit codes (STYLE.md); no traceback for input errors."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            code = command(*args, **kwargs)
        except InputError as err:
            _print_problems(err.problems)
            code = EXIT_INPUT
        except FoundProblems as err:
            for line in err.lines:
                click.echo(line, err=True)
            click.echo(f"error: {err}", err=True)
            code = EXIT_FOUND
        except TaugenError as err:
            click.echo(f"error: {err}", err=True)
            code = EXIT_INPUT
        except Exception:  # a bug: say where to report it
            click.echo(traceback.format_exc(), err=True)
            click.echo(f"internal error: this is a bug in taugen; please report it at {ISSUES}", err=True)
            code = EXIT_INTERNAL
        sys.exit(code)

    return run


def config_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """-c/--config: the project file, as every command reads it."""
    return click.option(
        "-c",
        "--config",
        "config",
        type=click.Path(path_type=Path),
        default="taugen.yaml",
        show_default=True,
        help=help_text,
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="taugen")
def main() -> None:
    """Compile a GPU cluster inventory into Kueue manifests for GitOps."""


@main.command("build")
@config_option("Project file.")
@click.option("--cluster", help="Build only this cluster.")
@click.option("--out", type=click.Path(path_type=Path), help="Output root (default: the project's).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if out/ or the lock is stale.")
@click.option("--allow-quota-decrease", is_flag=True, help="Let GPU quota drop or flavors go (R26).")
@click.option("--allow-stale", is_flag=True, help="Accept an inventory older than the lock (R31).")
@_guarded
def build_command(
    config: Path,
    cluster: str | None,
    out: Path | None,
    check: bool,
    allow_quota_decrease: bool,
    allow_stale: bool,
) -> int:
    """Compile the project into out/<cluster>/ and taugen.lock."""
    result = build(BuildOptions(config, cluster, out, check, allow_quota_decrease, allow_stale))
    _print_problems(result.warnings, MAX_WARNINGS)
    return _report(result, check)


def _report(result: BuildResult, check: bool) -> int:
    if check:
        for line in result.differences:
            click.echo(line)
        if result.differences:
            click.echo("out of date: run `taugen build`", err=True)
            return EXIT_FOUND
        click.echo("up to date")
        return EXIT_OK
    click.echo(f"wrote {', '.join(result.written)}" if result.written else "up to date")
    return EXIT_OK


@main.command("schema")
@click.argument("kind", required=False, type=click.Choice(sorted(KINDS), case_sensitive=False))
@click.option("--out", type=click.Path(path_type=Path), help="Write every schema into this folder.")
@_guarded
def schema_command(kind: str | None, out: Path | None) -> int:
    """Print the JSON Schema of an input KIND, or write them all (Kueue's too) with --out."""
    files = schema_files()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            (out / name).write_bytes(content)
        kueue = write_kueue_schemas(out)
        click.echo(f"wrote {len(files) + len(kueue)} schemas to {out}")
        return EXIT_OK
    chosen = [f"{kind.lower()}.schema.json"] if kind else sorted(files)
    for name in chosen:
        click.echo(files[name].decode(), nl=False)
    return EXIT_OK


@main.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@config_option("Project whose output tree is validated when no PATH is given.")
@click.option(
    "--crd",
    "crds",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="CRD YAML file or folder: validate its kinds against it instead (repeatable).",
)
@click.option(
    "--kubernetes-version",
    default=DEFAULT_KUBERNETES_VERSION,
    show_default=True,
    help="Kubernetes version of the built-in kinds' schemas.",
)
@click.option("--output", "output", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@click.option(
    "--kubeconform",
    "with_kubeconform",
    is_flag=True,
    help="Also run kubeconform (when on PATH) with taugen's schemas and merge its verdicts.",
)
@_guarded
def validate_command(
    paths: tuple[Path, ...],
    config: Path,
    crds: tuple[Path, ...],
    kubernetes_version: str,
    output: str,
    with_kubeconform: bool,
) -> int:
    """Validate manifest files, folders or kustomizations (default: the project's out/)."""
    report = validate_paths(ValidateOptions(paths, config, crds, kubernetes_version))
    if with_kubeconform:
        report, note = run_kubeconform(report)
        click.echo(note, err=True)
    click.echo(RENDERERS[output](report, Path.cwd()), nl=False)
    return EXIT_OK if report.valid else EXIT_FOUND


@main.command("diff")
@click.argument("base")
@click.argument("head", required=False)
@config_option("Project whose output root is compared when BASE or HEAD names no path.")
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text for a terminal, markdown for a pull-request comment, json for machines.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    help="Exit 1 on any change, on any risk, or on a risk of one class.",
)
@_guarded
def diff_command(base: str, head: str | None, config: Path, output: str, fail_on: str | None) -> int:
    """Compare two output trees: BASE and HEAD are folders, files, git:REV or git:REV:PATH.

    HEAD defaults to the working tree. Git revisions are read without a checkout.
    """
    result = diff(DiffOptions(base, head, Path.cwd(), config))
    if output == "json":
        click.echo(as_json(result), nl=False)
    elif output == "markdown":
        click.echo(markdown(result), nl=False)
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        click.echo(text(result, color), nl=False, color=color)
    return EXIT_FOUND if result.crosses(fail_on) else EXIT_OK


@main.command("profiles")
@config_option("Project file.")
@click.option("--cluster", help="Only this cluster.")
@_guarded
def profiles_command(config: Path, cluster: str | None) -> int:
    """List each cluster's profiles: resolved policy and readiness, from the catalog (R30)."""
    tables = profile_tables(config, cluster)
    _print_problems(t.stale for t in tables if t.stale is not None)
    click.echo(as_table(tables), nl=False)
    return EXIT_OK


@main.command("render")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path))
@config_option("Project file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(RENDER_FORMATS),
    default="manifest",
    show_default=True,
    help="manifest: an applyable Job (and torchrun Service); patch: only the contract fragment.",
)
@_guarded
def render_command(run_file: Path, config: Path, fmt: str) -> int:
    """Render a RUN file into the Kueue contract (§7); warnings go to stderr."""
    context = resolve_run(run_file, config)
    output = render(context, "patch" if fmt == "patch" else "manifest")
    _print_problems(run_warnings(context))
    click.echo(output, nl=False)
    return EXIT_OK


@main.command("preflight")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path))
@config_option("Project file.")
@click.option("--format", "fmt", type=click.Choice(run_report.FORMATS), default="text", show_default=True)
@_guarded
def preflight_command(run_file: Path, config: Path, fmt: str) -> int:
    """Say whether a RUN is eligible in its cluster: exit 0 eligible, 1 not eligible.

    Eligible only: capacity is reserved at admission, never by preflight.
    """
    context = resolve_run(run_file, config)
    result = preflight(context)
    _print_problems(context.warnings)  # a deprecated profile; the placement is in the answer
    click.echo((run_report.as_json if fmt == "json" else run_report.as_text)(result), nl=False)
    return EXIT_OK if result.eligible else EXIT_FOUND
