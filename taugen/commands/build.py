"""`taugen build`: load -> resolve -> compile -> emit -> write (STYLE.md's pipeline)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from taugen.compile.cluster import cluster_manifests
from taugen.compile.decorate import decorate
from taugen.compile.digest import catalog_digest
from taugen.compile.fleet import ManagerPlan
from taugen.compile.gitops.tree import gitops_manifests, shard_folders
from taugen.compile.quota import ClassQuota
from taugen.context.classes import known_classes, profile_class_warnings
from taugen.context.cluster import PlanOptions
from taugen.context.session import ProjectContext, open_project
from taugen.core.errors import InputError, Problem, ProblemCollector
from taugen.core.gcpause import paused_gc
from taugen.core.names import GITOPS_FOLDERS
from taugen.core.progress import Progress, silent
from taugen.emit.canonical import emit_objects, render
from taugen.emit.folders import render_folders
from taugen.emit.split import split_node_files
from taugen.load.native import Early
from taugen.load.profiles import LoadedProfile, profile_files
from taugen.load.project import LoadedProject
from taugen.lock.lockfile import LockState, lock_bytes
from taugen.lock.sharing import recorded_sharing
from taugen.models.lock import ClusterLock, Lock
from taugen.models.project import Cluster
from taugen.resolve.rules import RuleSet
from taugen.schedulers.registry import scheduler_of
from taugen.validate.built_nodes import summarized
from taugen.validate.crd import crd_files
from taugen.validate.gate import Apart, check_tree
from taugen.write.cache import Request, lookup, store
from taugen.write.check import describe
from taugen.write.exclusive import exclusive
from taugen.write.journal import FilesOnDisk, recover, staging_dir, write_tree
from taugen.write.safety import check_cluster_folders, check_output_root


@dataclass(frozen=True)
class BuildOptions:
    project_file: Path = Path("taugen.yaml")
    cluster: str | None = None
    out: Path | None = None
    check: bool = False
    allow_quota_decrease: bool = False
    allow_stale: bool = False
    crds: tuple[Path, ...] = ()  # --crd: upstream CRDs the gate validates against, after `crds:`
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    progress: Progress = field(default=silent, compare=False)  # stage names for the CLI (issue 12)
    # what the build opened, handed over as it returns: a process that ends next holds it rather
    # than free it object by object (issue 36: 0.2 s at 100,000 nodes; cli/ending.py)
    keep: Callable[[object], None] = field(default=lambda _: None, compare=False)
    early: Early | None = field(default=None, compare=False)  # an inventory parsed ahead (context/early.py)


@dataclass(frozen=True)
class BuildResult:
    warnings: tuple[Problem, ...]
    written: tuple[str, ...] = ()  # cluster folders replaced (and the lock), in order
    differences: tuple[str, ...] = ()  # --check: what is not as a build would write it


@dataclass(frozen=True)
class CompiledCluster:
    files: dict[str, bytes]
    objects: dict[str, list[dict[str, Any]]]  # per file, as written (validated before the swap)
    lock: ClusterLock
    warnings: list[Problem]
    deadline: datetime | None  # R31: when maxInventoryAge makes this inventory stale
    rules: RuleSet  # built-in and extra: the gpu-classes a profile may name (issue 21)
    apart: Apart | None = None  # node-label files whose objects a forked child kept (emit/split.py)


def _plan(options: BuildOptions) -> PlanOptions:
    return PlanOptions(
        options.allow_quota_decrease,
        options.allow_stale,
        options.now,
        options.progress,
        build=True,
        early=options.early,
    )


def _build(project: ProjectContext, options: BuildOptions) -> BuildResult:
    loaded = project.loaded
    clusters = project.select(options.cluster)
    root = loaded.output_root(options.out)
    preview = root.resolve() != loaded.output_root(None).resolve()  # --out elsewhere: no lock written
    check_output_root(loaded, root)
    if not options.check:
        recover(root, None if preview else loaded.lock_path)  # finish or undo a killed build first
    state = project.lock  # read after the recovery: the lock a killed build left, finished or undone
    leaving = tuple(sorted(set(state.lock.clusters) - {c.name for c in loaded.project.clusters}))
    check_cluster_folders(loaded, root, leaving)
    if not (options.cluster or preview):
        _check_leaving(loaded, state.lock, leaving, options.allow_quota_decrease)
    crds = (*loaded.crd_sources(), *options.crds)
    request = None if options.check else _request(project, clusters, root, options, preview, crds)
    if request is not None and (replayed := lookup(request, options.now)) is not None:
        return BuildResult(replayed)  # nothing changed since the last build: its warnings again
    profiles = project.profiles
    compiled = _compile_all(project, clusters, profiles, state)
    dropped = () if options.cluster or preview else leaving
    new_lock = None if preview else _new_lock(state.lock, compiled, dropped)
    files = {name: c.files for name, c in compiled.items()}
    if len(compiled) == len(loaded.project.clusters):  # G6 lists every cluster: a `-c` build keeps it
        gitops = render_folders(
            gitops_manifests(loaded.project, {n: shard_folders(f) for n, f in files.items()})
        )
        files |= gitops
        dropped += tuple(f for f in GITOPS_FOLDERS if f not in gitops)
    warnings = (*state.warnings(loaded.lock_path), *(w for c in compiled.values() for w in c.warnings))
    warnings += tuple(profile_class_warnings(profiles, known_classes(c.rules for c in compiled.values())))
    options.progress("validating the compiled tree")
    apart = {name: c.apart for name, c in compiled.items() if c.apart is not None}
    trees = {name: (c.objects, c.files) for name, c in compiled.items()}  # let go before `store`
    warnings += tuple(check_tree(root, trees, crds, apart))
    del trees
    expected = None if new_lock is None else (loaded.lock_path, new_lock)
    if options.check:
        lines = _differences(loaded.root, root, files, dropped, expected)
        options.keep(compiled)  # held to the end anyway: not freed object by object on return
        return BuildResult(warnings, differences=tuple(lines))
    options.progress(f"writing {root}")
    written = write_tree(root, files, dropped, lock=expected)
    if request is not None:
        deadlines = [d for c in compiled.values() if (d := c.deadline) is not None]
        del compiled, files, apart  # the cache reads the written tree back: not on top of it (issue 36: peak)
        store(request, deadlines, warnings)
    return BuildResult(warnings, tuple(written))


def _request(
    project: ProjectContext,
    clusters: Sequence[Cluster],
    root: Path,
    options: BuildOptions,
    preview: bool,
    crds: tuple[Path, ...],
) -> Request:
    loaded = project.loaded
    sources = [loaded.doc.path, *(p for source in crds for p in crd_files(source))]
    if project.manager(clusters) is not None:  # M2: its workers' inputs too
        workers = {w.name for w in project.workers()}
        clusters = [*clusters, *(c for c in loaded.project.clusters if c.name in workers)]
    for cluster in clusters:
        sources += [loaded.root / cluster.inventory, *(loaded.root / r for r in cluster.rules)]
    sources += profile_files(loaded.profile_sources())
    return Request(
        project=loaded.doc.path,
        root=root,
        clusters=tuple(c.name for c in clusters),
        options=(options.allow_quota_decrease, options.allow_stale, not preview),
        sources=tuple(sources),
        lock=loaded.lock_path,
    )


def build(options: BuildOptions) -> BuildResult:
    """Compile the project; a build that writes waits for any other build of the same project,
    then compiles against the tree and lock that build left."""
    folder = options.project_file.resolve().parent
    try:
        with paused_gc():
            return _opened(options, folder)
    except OSError as err:  # a file-system fault is reported, never a traceback (issue 17)
        raise InputError([_io_problem(err, folder)]) from None


def _opened(options: BuildOptions, folder: Path) -> BuildResult:
    """Open the project and build it; everything the build loaded is let go on return, before the
    collector runs again (issue 36: its first pass after the pause walked the loaded inventory and
    tree, about 0.1 s at 100,000 nodes, while they were still held here)."""
    project = open_project(options.project_file, _plan(options))
    options.keep(project)
    if options.check or not folder.is_dir():
        return _build(project, options)
    root = project.loaded.output_root(options.out)  # where it stages
    with exclusive(folder, root.resolve().parent):
        return _build(project, options)


def _io_problem(err: OSError, folder: Path) -> Problem:
    where = Path(str(err.filename)) if err.filename else folder
    message = f"{err.strerror or err}: {where}"
    hint = "fix the cause (permissions, free space) and build again: out/ and taugen.lock are whole"
    return Problem(where, 0, 0, "io", message, hint)


def _compile_all(
    project: ProjectContext,
    clusters: Sequence[Cluster],
    profiles: Sequence[LoadedProfile],
    state: LockState,
) -> dict[str, CompiledCluster]:
    """Workers before their manager (the floor sums their quotas, M2); `-c <manager>` compiles
    its workers too, for their quotas only: their folders are not written."""
    manager = project.manager(clusters)
    problems = ProblemCollector()
    compiled: dict[str, CompiledCluster] = {}
    for cluster in project.needed(clusters):
        if cluster is manager and problems.problems:
            break  # a worker failed: its errors say why, the manager's sum cannot
        try:
            compiled[cluster.name] = _compile(project, cluster, profiles, state)
        except InputError as err:
            problems.extend(err.problems)
    problems.raise_if_any()
    return {c.name: compiled[c.name] for c in clusters}


def _compile(
    project: ProjectContext, cluster: Cluster, profiles: Sequence[LoadedProfile], state: LockState
) -> CompiledCluster:
    view = project.cluster(cluster)  # loaded, resolved and planned with the build's options
    resolved, quotas, guarantees = view.resolved, list(view.quotas), view.guarantees
    allow_decrease = project.plan.allow_quota_decrease
    previous = state.lock.clusters.get(cluster.name)
    sharing = recorded_sharing(resolved, previous, quotas, allow_decrease)
    tiers = project.loaded.project.tiers  # R50
    digest = catalog_digest(resolved, profiles, quotas, tiers)
    backend = scheduler_of(cluster.scheduler)
    manager = view.manager
    split = split_node_files(resolved, backend, summarized)  # a large cluster's Nodes: two processes
    nodes = split is None  # the node-label objects are built here, not by split
    # one expression: the undecorated manifests are let go once decorated, before the tree is
    # written and checked (issue 36: held to the end, they raised a 100k build's peak by 50 MiB)
    objects = emit_objects(
        decorate(
            cluster_manifests(
                backend, resolved, quotas, profiles, digest, guarantees, manager, tiers, node_objects=nodes
            ),
            backend,
        )
    )
    if split is not None:
        objects = dict(sorted({**objects, **split.objects}.items()))
    entry = ClusterLock(
        observedAt=resolved.observed_at.astimezone(UTC),
        inputsDigest=digest,
        gpuQuota={q.gpu_class: q.gpus for q in quotas},
        extraQuota={q.gpu_class: dict(q.extra) for q in quotas if q.extra},  # R44
        guaranteed=guarantees.recorded(),  # T6
        gpuSharing=sharing,
        heldAboveInventory=_held(quotas, manager),
    )
    warnings = [*view.history.warnings, *resolved.warnings, *view.quota_warnings]
    age = cluster.maxInventoryAge
    deadline = None if age is None or project.plan.allow_stale else resolved.observed_at + age
    texts = render(objects, None if split is None else split.texts)
    apart = None if split is None else split.kept
    return CompiledCluster(texts, objects, entry, warnings, deadline, resolved.rules, apart)


def _held(quotas: Sequence[ClassQuota], manager: ManagerPlan | None) -> dict[str, int]:
    """Issue 34 (7), 36: the inventory's GPUs of each class whose quota (R26) is above them, for
    diff; a MultiKueue manager's quota holds its workers' GPUs (M2), not its own: none."""
    if manager is not None:
        return {}
    return {q.gpu_class: q.observed_gpus for q in quotas if q.gpus > q.observed_gpus}


def _check_leaving(loaded: LoadedProject, lock: Lock, dropped: Sequence[str], allow_decrease: bool) -> None:
    """R26, R35 (issue 32): a cluster gone from taugen.yaml takes its quota high-water marks and
    its lock history with it; listed again later, it would start from nothing. Only
    --allow-quota-decrease removes it."""
    if allow_decrease:
        return
    where = loaded.doc.at(["clusters"], key=True)
    problems = [
        where.problem(
            "R26",
            f"cluster {name} is in taugen.lock but no longer in taugen.yaml: the build would drop its "
            f"GPU quota ({_marks(lock.clusters[name].gpuQuota)}) and its lock history",
            "pass --allow-quota-decrease to remove the cluster, or list it again",
        )
        for name in dropped
        if name in lock.clusters
    ]
    if problems:
        raise InputError(problems)


def _marks(quota: Mapping[str, int]) -> str:
    return ", ".join(f"{gpu_class} {gpus}" for gpu_class, gpus in sorted(quota.items())) or "none"


def _new_lock(lock: Lock, compiled: dict[str, CompiledCluster], dropped: tuple[str, ...]) -> bytes:
    clusters = {k: v for k, v in lock.clusters.items() if k not in dropped}
    clusters.update({name: c.lock for name, c in compiled.items()})
    return lock_bytes(Lock(clusters=dict(sorted(clusters.items()))))


_NOT_CONFIGURED = "G6 files of a tool the project's `gitops:` block no longer names"


def _shown(project: Path, path: Path) -> Path:
    """A path as --check prints it: relative to the project folder (issue 34: `out/c1/…`, not
    the checkout's absolute path); one outside the project (--out elsewhere) stays whole."""
    for folder, base in ((path.parent, project), (path.parent.resolve(), project.resolve())):
        if folder.is_relative_to(base):  # the file itself is not resolved: it may be a symlink
            return folder.relative_to(base) / path.name
    return path


def _differences(
    project: Path,
    root: Path,
    files: dict[str, dict[str, bytes]],
    dropped: tuple[str, ...],
    lock: tuple[Path, bytes] | None,
) -> list[str]:
    """What is not as a build would write it: every file compared with a real compile (R34)."""
    lines = []
    for name, content in files.items():
        lines += describe(_shown(project, root / name), FilesOnDisk(root / name), content)
    lines += [
        f"{_shown(project, root / name)}: "
        + (_NOT_CONFIGURED if name in GITOPS_FOLDERS else "cluster no longer in the project")
        + " (a build removes it)"
        for name in dropped
        if (root / name).exists() or (root / name).is_symlink()
    ]
    staging = staging_dir(root)
    if staging.exists() or staging.is_symlink():
        lines.append(
            f"{_shown(project, staging)}: left by an interrupted build (`taugen build` finishes or undoes it)"
        )
    if lock is not None:
        path, expected = lock
        if path.is_symlink() or not path.is_file():
            lines.append(f"{_shown(project, path)}: missing")
        elif path.read_bytes() != expected:
            lines.append(f"{_shown(project, path)}: out of date")
    return lines
