"""`taugen validate` as a core function: paths in, a report out (the CLI prints it)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from taugen.compile.guarantee_checks import weight_warnings
from taugen.context.session import ProjectContext, open_project
from taugen.core.choices import DEFAULT_KUBERNETES_VERSION
from taugen.core.errors import InputError, Problem
from taugen.core.gcpause import paused_gc
from taugen.validate.built_nodes import vouch
from taugen.validate.engine import Report, validate
from taugen.validate.findings import Finding
from taugen.validate.objects import tree_roots
from taugen.validate.resources import load_resources, manifest_files
from taugen.validate.schemas import SchemaStore
from taugen.write.exclusive import exclusive
from taugen.write.safety import check_cluster_folders, check_output_root


@dataclass(frozen=True)
class ValidateOptions:
    paths: tuple[Path, ...] = ()
    project_file: Path = Path("taugen.yaml")
    crds: tuple[Path, ...] = ()
    kubernetes_version: str = DEFAULT_KUBERNETES_VERSION


def default_paths(project: ProjectContext) -> tuple[Path, ...]:
    """No PATH given: every cluster folder of the project's output tree, which must hold
    nothing else (a stray folder is deployed too) and no link (issue 17)."""
    loaded = project.loaded
    root = loaded.output_root(None)
    check_output_root(loaded, root)
    try:
        known = set(project.lock.lock.clusters)
    except InputError:  # a broken lock is the build's to report; validate reads the tree
        known = set()
    check_cluster_folders(loaded, root, known - {c.name for c in loaded.project.clusters})
    return tuple(root / c.name for c in loaded.project.clusters)


def validate_paths(options: ValidateOptions) -> Report:
    """The collector is paused as in a build (gcpause.py): at 100,000 nodes it walked the
    parsed tree's millions of young objects for a fifth of the time (issue 20).

    The CRDs are the project's `crds:` (when there is a project file) and then `--crd`'s."""
    if options.paths:
        has_project = options.project_file.is_file()
        crds = (
            (*open_project(options.project_file).loaded.crd_sources(), *options.crds)
            if has_project
            else options.crds
        )
        with paused_gc():
            return _validate(options, options.paths, crds)
    project = open_project(options.project_file)
    loaded = project.loaded
    folder = options.project_file.resolve().parent
    root = loaded.output_root(None)
    with exclusive(folder, root.resolve().parent, shared=True), paused_gc():  # never a tree mid-swap
        report = _validate(options, default_paths(project), (*loaded.crd_sources(), *options.crds))
    return replace(report, project=project_findings(project))


def project_findings(project: ProjectContext) -> list[Finding]:
    """What the project file says that the tree cannot show: R49, a tenant's weight that the
    cluster's Kueue, recorded without fair sharing, does not read (the check a build runs)."""
    loaded = project.loaded
    return [
        Finding(problem, "Project")
        for index, cluster in enumerate(loaded.project.clusters)
        for problem in weight_warnings(cluster, loaded.doc, index)
    ]


def _validate(options: ValidateOptions, paths: tuple[Path, ...], crds: tuple[Path, ...]) -> Report:
    files, listing = manifest_files(list(paths))
    loaded = load_resources(files)
    store = SchemaStore(options.kubernetes_version, crds)
    unreadable = [Finding(p, "file") for p in [*listing, *loaded.problems]]
    if not loaded.resources and not unreadable:  # issue 32: `… | taugen validate -` of nothing passed
        where = paths[0] if len(paths) == 1 else Path(", ".join(p.as_posix() for p in paths))
        message = "nothing to validate: no Kubernetes object in it"
        hint = "name the compiled tree, or a file or stream that holds its objects"
        unreadable = [Finding(Problem(where, 0, 0, "io", message, hint), "file")]
    roots = tree_roots(paths)
    vouched = vouch(loaded.resources, store, roots)  # partial Nodes checked in bulk (issue 36)
    return validate(loaded.resources, store, len(files), unreadable, roots, vouched)
