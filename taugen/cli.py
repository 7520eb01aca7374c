"""The command line: parses arguments, calls the core, prints, maps errors to exit codes."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taugen import __version__, choices
from taugen.errors import FoundProblems, InputError, Problem, TaugenError, bounded
from taugen.progress import Progress, ProgressLine, silent

if TYPE_CHECKING:  # annotations only: the commands import their modules when they run
    from taugen.commands.build import BuildResult

EXIT_OK, EXIT_FOUND, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
ISSUES = "https://github.com/tau-azure/taugen/issues"
PROJECT_FILE = "taugen.yaml"
MAX_WARNINGS = 50


STDIN = "-"
_stdin_copies: dict[Path, str] = {}  # a copy of standard input -> how problems name it


def _print_problems(problems: Iterable[Problem], limit: int | None = None) -> None:
    items = list(problems)
    shown = items if limit is None else items[:limit]
    for problem in shown:
        click.echo(_named(problem.render(Path.cwd())), err=True)
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
        except FoundProblems as err:  # lines and messages echo values: one line each (issue 17 item 9)
            for line in err.lines:
                click.echo(bounded(line), err=True)
            click.echo(f"error: {bounded(str(err))}", err=True)
            code = EXIT_FOUND
        except TaugenError as err:
            click.echo(f"error: {bounded(str(err))}", err=True)
            code = EXIT_INPUT
        except click.ClickException:  # a usage error a command found: click prints it, exit 2
            raise
        except KeyboardInterrupt:  # Ctrl-C: one line; a build undoes (or the next finishes) its write
            click.echo("interrupted: out/ and taugen.lock are whole (exit 130)", err=True)
            code = EXIT_INTERRUPTED
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
    from taugen.repository import find_project

    here = Path.cwd()
    found = find_project(here)  # issue 32: never above the repository's root
    return value if found is None or found.parent == here else found


def _named(text: str) -> str:
    """Output that names a copy of standard input names it `<stdin>`."""
    for copy, name in _stdin_copies.items():
        text = text.replace(str(copy), name)
    return text


def _stdin(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Issue 21: `-` is standard input wherever a command reads a file it does not write
    (`kubectl kustomize … | taugen validate -`); it is read once into a private file that
    problems name `<stdin>`. A path stays a Path, a tree source (`diff`) a string."""
    values = value if isinstance(value, tuple) else (value,)
    if not any(v is not None and str(v) == STDIN for v in values):
        return value
    if ctx.meta.get("taugen.stdin") is not None:  # a stream is read once
        raise click.BadParameter("standard input is already another argument's `-`", ctx, param)
    folder = Path(tempfile.mkdtemp(prefix="taugen-stdin-"))
    # on the root context: a usage error after this callback (a second `-`) never closes ctx (issue 32)
    ctx.find_root().call_on_close(partial(shutil.rmtree, folder, ignore_errors=True))
    copy = ctx.meta["taugen.stdin"] = folder / "stdin.yaml"
    _copy_stdin(copy, ctx, param)
    _stdin_copies[copy] = "<stdin>"
    swapped = tuple(type(v)(copy) if v is not None and str(v) == STDIN else v for v in values)
    return swapped if isinstance(value, tuple) else swapped[0]


def _copy_stdin(copy: Path, ctx: click.Context, param: click.Parameter) -> None:
    """At most the input size limit (load/limits.py) and one byte more is read: a stream past
    it is refused there, never read whole first (issue 32: 2 GB on stdin was a MemoryError)."""
    from taugen.load.limits import MAX_BYTES

    left = MAX_BYTES + 1
    with copy.open("wb") as out:
        while left and (chunk := sys.stdin.buffer.read(min(left, 1 << 20))):
            out.write(chunk)
            left -= len(chunk)
    if not left:
        limit = f"{MAX_BYTES:,} bytes ({MAX_BYTES >> 20} MiB)"
        raise click.BadParameter(f"standard input is larger than an input may be, {limit}", ctx, param)


def output_option(*formats: str, default: str = "text") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
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
        ctx.meta["taugen.format"] = value


def _output(ctx: click.Context, param: click.Parameter, value: str) -> str:
    given = (
        param.name is not None
        and ctx.get_parameter_source(param.name) is not click.core.ParameterSource.DEFAULT
    )
    return value if given else str(ctx.meta.get("taugen.format", value))


def _print_data(fmt: str, as_json: Callable[[Any], str], as_text: Callable[[Any], str], data: Any) -> None:
    """text (or table) for people; json, or the same as yaml, for machines."""
    if fmt in ("json", "yaml"):
        text = as_json(data)
        if fmt == "yaml":
            import json

            import yaml

            text = yaml.safe_dump(json.loads(text), sort_keys=False, allow_unicode=True)
        click.echo(_named(text), nl=False)
        return
    click.echo(_named(as_text(data)), nl=False)


def crd_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--crd FILE|DIR|- (repeatable): upstream CRDs, after the project's `crds:` (issue 30)."""
    return click.option(
        "--crd",
        "crds",
        multiple=True,
        type=click.Path(path_type=Path, exists=True, allow_dash=True),
        callback=_stdin,
        help=f"{help_text} A CRD file, a folder of them, or - (e.g. `kubectl get crd -o yaml`); repeatable.",
    )


def cluster_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--cluster NAME, completing the project's cluster names."""
    return click.option("--cluster", shell_complete=_complete_clusters, help=help_text)


def _complete_clusters(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Issue 21: --cluster completes the project's cluster names."""
    from taugen import completion

    return [n for n in completion.cluster_names(_completion_project(ctx)) if n.startswith(incomplete)]


def _complete_gpu_classes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """CLASS completes the gpu-classes the lock knows (every class a build has written)."""
    from taugen import completion

    return [c for c in completion.gpu_classes(_completion_project(ctx)) if c.startswith(incomplete)]


def _complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """PROFILE completes the names of the profiles the project reads."""
    from taugen import completion

    return [n for n in completion.profile_names(_completion_project(ctx)) if n.startswith(incomplete)]


def _completion_project(ctx: click.Context) -> Path | None:
    from taugen import completion

    return completion.find_project(ctx.params.get("config"), Path.cwd())


def progress_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--progress: stages on stderr after a second, also when stderr is not a terminal (issue 12)."""
    return click.option(
        "--progress",
        is_flag=True,
        help="Show progress on stderr even when it is not a terminal (on a terminal it is shown anyway).",
    )(command)


@contextmanager
def _progress(forced: bool) -> Iterator[Progress]:
    """Progress on stderr when a person watches (a terminal) or `--progress` asks; silent otherwise."""
    terminal = sys.stderr.isatty()
    if not (terminal or forced):
        yield silent
        return
    line = ProgressLine(lambda words: click.echo(words, err=True, nl=False), terminal)
    line.start()
    try:
        yield line
    finally:
        line.close()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="taugen")
def main() -> None:
    """Compile a GPU cluster inventory into Kueue manifests for GitOps."""


@main.command("build")
@config_option("Project file.")
@cluster_option("Build only this cluster.")
@click.option("--out", type=click.Path(path_type=Path), help="Output root (default: the project's).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if out/ or the lock is stale.")
@click.option("--allow-quota-decrease", is_flag=True, help="Let GPU quota drop or flavors go (R26).")
@click.option("--allow-stale", is_flag=True, help="Accept an inventory older than the lock (R31).")
@crd_option("Validate the compiled tree against these upstream CRDs too (their schemas and CEL rules).")
@progress_option
@_guarded
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
    from taugen.commands.build import BuildOptions, build

    with _progress(progress) as say:
        options = BuildOptions(
            config, cluster, out, check, allow_quota_decrease, allow_stale, crds=crds, progress=say
        )
        result = build(options)
    _print_problems(result.warnings, MAX_WARNINGS)
    return _report(result, check)


def _report(result: BuildResult, check: bool) -> int:
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


@main.command("schema")
@click.argument("kind", required=False, type=click.Choice(choices.INPUT_KINDS, case_sensitive=False))
@click.option("--out", type=click.Path(path_type=Path), help="Write every schema into this folder.")
@_guarded
def schema_command(kind: str | None, out: Path | None) -> int:
    """Print the JSON Schema of an input KIND, or write them all (Kueue's too) with --out."""
    from taugen.commands.schema import export_schemas
    from taugen.models.schemas import schema_files

    if out is not None:
        click.echo(f"wrote {len(export_schemas(out))} schemas to {out}")
        return EXIT_OK
    files = schema_files()
    chosen = [f"{kind.lower()}.schema.json"] if kind else sorted(files)
    for name in chosen:
        click.echo(files[name].decode(), nl=False)
    return EXIT_OK


@main.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), callback=_stdin)
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
@_guarded
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
    if with_kubeconform:
        report, note = run_kubeconform(report, crds, kubernetes_version)
        click.echo(note, err=True)
    if with_server:
        report, note = dry_run(report, ServerTarget(kubeconfig, context))
        click.echo(note, err=True)
    if output == "yaml":
        _print_data(output, lambda r: RENDERERS["json"](r, Path.cwd()), str, report)
    else:
        click.echo(_named(RENDERERS[output](report, Path.cwd())), nl=False)
    return EXIT_OK if report.valid else EXIT_FOUND


@main.command("diff")
@click.argument("base", callback=_stdin)
@click.argument("head", required=False, callback=_stdin)
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
    callback=_stdin,
    help="A WorkloadSet: simulate it on both trees and show the runs that change (SPEC §9).",
)
@crd_option("Check updates against these upstream CRDs' transition rules (immutable fields).")
@_guarded
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
    from taugen.diff.engine import DiffOptions, diff
    from taugen.diff.markdown import markdown
    from taugen.diff.render import as_json, text

    result = diff(DiffOptions(base, head, Path.cwd(), config, workloads, crds))
    if fmt == "markdown":
        click.echo(_named(markdown(result)), nl=False)
    else:  # color only on a terminal, as git does; the words are the same
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        _print_data(fmt, as_json, lambda r: text(r, color), result)
    return EXIT_FOUND if result.crosses(fail_on) else EXIT_OK


@main.command("profiles")
@click.argument("names", nargs=-1, metavar="[PROFILE]...", shell_complete=_complete_profiles)
@config_option("Project file.")
@cluster_option("Only this cluster.")
@output_option("table", "json", default="table")
@_guarded
def profiles_command(names: tuple[str, ...], config: Path, cluster: str | None, fmt: str) -> int:
    """List each cluster's profiles (or only PROFILE...): resolved policy and readiness (R30)."""
    from taugen.runs.profiles import as_json, as_table, profile_tables

    tables = profile_tables(config, cluster, names)
    _print_problems(t.stale for t in tables if t.stale is not None)
    _print_data(fmt, as_json, as_table, tables)
    return EXIT_OK


@main.command("render")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path), callback=_stdin)
@config_option("Project file.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(choices.RENDER_FORMATS),
    default="manifest",
    show_default=True,
    help="manifest: an applyable Job (and torchrun Service); patch: only the contract fragment.",
)
@_guarded
def render_command(run_file: Path, config: Path, fmt: str) -> int:
    """Render a RUN file into its scheduler's contract (§7, K4, K5); warnings go to stderr."""
    from taugen.runs.placement import run_warnings
    from taugen.runs.render import render
    from taugen.runs.resolution import resolve_run

    context = resolve_run(run_file, config)
    output = render(context, "patch" if fmt == "patch" else "manifest")
    _print_problems(run_warnings(context))
    click.echo(output, nl=False)
    return EXIT_OK


@main.command("preflight")
@click.argument("run_file", metavar="RUN", type=click.Path(path_type=Path), callback=_stdin)
@config_option("Project file.")
@output_option(*choices.REPORT_FORMATS)
@_guarded
def preflight_command(run_file: Path, config: Path, fmt: str) -> int:
    """Say whether a RUN is eligible in its cluster: exit 0 eligible, 1 not eligible.

    Eligible only: capacity is reserved at admission, never by preflight.
    """
    from taugen.runs import report as run_report
    from taugen.runs.preflight import preflight
    from taugen.runs.resolution import resolve_run

    context = resolve_run(run_file, config)
    result = preflight(context)
    _print_problems(context.warnings)  # a deprecated profile; the placement is in the answer
    _print_data(fmt, run_report.as_json, run_report.as_text, result)
    return EXIT_OK if result.eligible else EXIT_FOUND


@main.command("report")
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
    callback=_stdin,
    help="Draw where the runs of a WorkloadSet land (`taugen simulate`).",
)
@progress_option
@_guarded
def report_command(
    config: Path, cluster: str | None, out: Path, base: str | None, workloads: Path | None, progress: bool
) -> int:
    """Write one HTML page: the topology tree, capacity per class, and a change or simulation on it."""
    from taugen.commands.report.command import ReportOptions, write_report

    with _progress(progress) as say:
        written = write_report(ReportOptions(config, cluster, out, base, workloads, Path.cwd(), say))
    click.echo(f"wrote {written}")
    return EXIT_OK


# Looking at a fleet (issue 11): explain, inventory show/import, drift.


@main.group("explain")
def explain_group() -> None:
    """Why a node has its labels (with provenance), what a gpu class holds, and a tenant's quota."""


@explain_group.command("node")
@click.argument("name")
@config_option("Project file.")
@click.option(
    "--cluster", shell_complete=_complete_clusters, help="The cluster (needed when the project has several)."
)
@output_option("text", "json")
@_guarded
def explain_node_command(name: str, config: Path, cluster: str | None, fmt: str) -> int:
    """Every label node NAME gets, which rule or provider label set it, and what it counts toward."""
    from taugen.commands.explain import render as explain_render
    from taugen.commands.explain.node import explain_node
    from taugen.context.session import load_view

    found = explain_node(load_view(config, cluster), name)
    _print_data(fmt, explain_render.node_json, explain_render.node_text, found)
    return EXIT_OK


@explain_group.command("class")
@click.argument("gpu_class", metavar="CLASS", shell_complete=_complete_gpu_classes)
@config_option("Project file.")
@click.option(
    "--cluster", shell_complete=_complete_clusters, help="The cluster (needed when the project has several)."
)
@output_option("text", "json")
@_guarded
def explain_class_command(gpu_class: str, config: Path, cluster: str | None, fmt: str) -> int:
    """The nodes, GPUs, Ready slots, quota and domains of gpu-class CLASS."""
    from taugen.commands.explain import render as explain_render
    from taugen.commands.explain.gpu_class import explain_class
    from taugen.context.session import load_view

    found = explain_class(load_view(config, cluster), gpu_class)
    _print_data(fmt, explain_render.class_json, explain_render.class_text, found)
    return EXIT_OK


@explain_group.command("tenant")
@click.argument("namespace")
@config_option("Project file.")
@click.option(
    "--cluster", shell_complete=_complete_clusters, help="The cluster (needed when the project has several)."
)
@output_option("text", "json")
@_guarded
def explain_tenant_command(namespace: str, config: Path, cluster: str | None, fmt: str) -> int:
    """How tenant NAMESPACE's guaranteed, borrowable and shared GPUs were derived (SPEC §10)."""
    from taugen.commands.explain.tenant import explain_tenant
    from taugen.commands.explain.tenant_render import tenant_json, tenant_text
    from taugen.context.session import load_view

    found = explain_tenant(load_view(config, cluster), namespace)
    _print_data(fmt, tenant_json, tenant_text, found)
    return EXIT_OK


@main.group("inventory")
def inventory_group() -> None:
    """Summarize a cluster's inventory, or refresh it from the live cluster."""


@inventory_group.command("show")
@config_option("Project file.")
@click.option(
    "--cluster", shell_complete=_complete_clusters, help="The cluster (needed when the project has several)."
)
@output_option("table", "json", default="table")
@_guarded
def inventory_show_command(config: Path, cluster: str | None, fmt: str) -> int:
    """Hosts, GPUs and Ready hosts per site and domain; quota, slots and high-water mark per class."""
    from taugen.commands.inventory import show as inventory_show
    from taugen.context.session import load_view

    summary = inventory_show.summarize(load_view(config, cluster))
    _print_data(
        fmt, inventory_show.as_json, inventory_show.as_table, summary
    )  # a table by default, piped too
    return EXIT_OK


@inventory_group.command("import")
@click.argument("nodelist", metavar="NODELIST", type=click.Path(path_type=Path), callback=_stdin)
@click.option(
    "--into",
    type=click.Path(path_type=Path),
    help="The inventory to refresh (default: the one the project names for the cluster).",
)
@config_option("Project file (to find the inventory when --into is not given).")
@click.option(
    "--cluster",
    shell_complete=_complete_clusters,
    help="The cluster whose inventory is refreshed (without --into).",
)
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@output_option("text", "json")
@_guarded
def inventory_import_command(
    nodelist: Path, into: Path | None, config: Path, cluster: str | None, dry_run: bool, fmt: str
) -> int:
    """Refresh an inventory from `kubectl get nodes -o yaml|json`, keeping what was written by hand."""
    from taugen.commands.inventory import report as import_report
    from taugen.commands.inventory.refresh import import_nodes, project_inventory

    target = into if into is not None else project_inventory(config, cluster)
    result = import_nodes(nodelist, target, dry_run)
    shown = _shown_path(target)
    _print_data(
        fmt, lambda r: import_report.as_json(r, shown), lambda r: import_report.as_text(r, shown), result
    )
    return EXIT_OK


@main.command("drift")
@click.argument("nodelist", metavar="NODELIST", type=click.Path(path_type=Path), callback=_stdin)
@config_option("Project file.")
@click.option(
    "--cluster", shell_complete=_complete_clusters, help="The cluster (needed when the project has several)."
)
@output_option("text", "json")
@_guarded
def drift_command(nodelist: Path, config: Path, cluster: str | None, fmt: str) -> int:
    """Compare a live NODELIST with the compiled tree and the inventory: exit 1 on drift."""
    from taugen.commands.drift import report as drift_report
    from taugen.commands.drift.command import drift

    found = drift(nodelist, config, cluster)
    _print_problems(found.warnings)
    _print_data(fmt, drift_report.as_json, drift_report.as_text, found)
    return EXIT_FOUND if found.drifted else EXIT_OK


def _shown_path(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@main.command("simulate")
@click.argument("workloads", metavar="WORKLOADS", type=click.Path(path_type=Path), callback=_stdin)
@config_option("Project file.")
@click.option(
    "--cluster",
    shell_complete=_complete_clusters,
    help="The cluster (default: the set's, or the project's only one).",
)
@output_option(*choices.REPORT_FORMATS)
@click.option("--tree", type=click.Path(path_type=Path), help="A compiled out/<cluster>/ folder to use.")
@click.option(
    "--fleet",
    is_flag=True,
    help="Admit on the MultiKueue manager, then dispatch each run to the first worker that admits it (M4).",
)
@_guarded
def simulate_command(
    workloads: Path, config: Path, cluster: str | None, fmt: str, tree: Path | None, fleet: bool
) -> int:
    """What Kueue would admit, and where (SPEC §9): exit 0 whatever it finds, 2 on bad input."""
    from taugen.simulate import report as sim_report
    from taugen.simulate.project import SimulateOptions, run_simulation

    if fleet:
        if cluster is not None or tree is not None:
            raise click.UsageError(
                "--fleet simulates the project's manager and workers: drop --cluster and --tree"
            )
        from taugen.simulate import fleet_report
        from taugen.simulate.fleet import run_fleet

        _print_data(fmt, fleet_report.as_json, fleet_report.as_text, run_fleet(workloads, config))
        return EXIT_OK
    sim = run_simulation(SimulateOptions(workloads, config, cluster, tree))
    _print_data(fmt, sim_report.as_json, sim_report.as_text, sim)
    return EXIT_OK


@main.command("init")
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
@_guarded
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
