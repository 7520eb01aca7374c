"""`taugen build`: load -> resolve -> compile -> emit -> write (STYLE.md's pipeline)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from taugen.check import describe
from taugen.compile.cluster import cluster_backend, cluster_manifests
from taugen.compile.decorate import decorate
from taugen.compile.digest import inputs_digest
from taugen.compile.quota import plan_quotas
from taugen.emit import emit_objects, render
from taugen.errors import InputError, Problem, ProblemCollector
from taugen.exclusive import exclusive
from taugen.gcpause import paused_gc
from taugen.load.profiles import LoadedProfile
from taugen.load.project import (
    LoadedProject,
    load_cluster_inputs,
    load_project,
    load_project_profiles,
)
from taugen.lock import ClusterLock, Lock, lock_bytes, read_lock, same_lock, tree_digest
from taugen.models.project import Cluster
from taugen.progress import Progress, silent
from taugen.resolve.cluster import resolve
from taugen.safety import check_output_root
from taugen.staleness import check_fresh
from taugen.tree import read_files, write_tree
from taugen.uptodate import sources_digest, unchanged
from taugen.validate.gate import check_tree


@dataclass(frozen=True)
class BuildOptions:
    project_file: Path = Path("taugen.yaml")
    cluster: str | None = None
    out: Path | None = None
    check: bool = False
    allow_quota_decrease: bool = False
    allow_stale: bool = False
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    progress: Progress = field(default=silent, compare=False)  # stage names for the CLI (issue 12)


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


def _build(options: BuildOptions) -> BuildResult:
    loaded = load_project(options.project_file)
    clusters = selected_clusters(loaded, options.cluster)
    lock = read_lock(loaded.lock_path)
    root = loaded.output_root(options.out)
    if unchanged(loaded, clusters, lock, root, options.now):
        check_output_root(loaded, root)
        return BuildResult((), ())
    profiles = load_project_profiles(loaded)
    compiled = _compile_all(loaded, clusters, profiles, lock, options)
    check_output_root(loaded, root)
    dropped = (
        ()
        if options.cluster
        else tuple(sorted(set(lock.clusters) - {c.name for c in loaded.project.clusters}))
    )
    new_lock = _new_lock(lock, compiled, dropped)
    files = {name: c.files for name, c in compiled.items()}
    warnings = tuple(w for c in compiled.values() for w in c.warnings)
    options.progress("validating the compiled tree")
    check_tree(root, {name: (c.objects, c.files) for name, c in compiled.items()})
    if options.check:
        return BuildResult(
            warnings, differences=tuple(_differences(root, files, dropped, loaded.lock_path, new_lock))
        )
    options.progress(f"writing {root}")
    written = write_tree(root, files, dropped, lock=(loaded.lock_path, new_lock))
    return BuildResult(warnings, tuple(written))


def build(options: BuildOptions) -> BuildResult:
    """Compile the project; a build that writes waits for any other build of the same project,
    then compiles against the tree and lock that build left."""
    folder = options.project_file.resolve().parent
    if options.check or not folder.is_dir():
        with paused_gc():
            return _build(options)
    with exclusive(folder), paused_gc():
        return _build(options)


def selected_clusters(loaded: LoadedProject, name: str | None) -> list[Cluster]:
    clusters = loaded.project.clusters
    if name is None:
        return list(clusters)
    chosen = [c for c in clusters if c.name == name]
    if not chosen:
        known = ", ".join(c.name for c in clusters)
        raise InputError(
            [
                loaded.doc.at(["clusters"]).problem(
                    "usage",
                    f"--cluster {name}: the project has no such cluster",
                    f"choose one of: {known}",
                )
            ]
        )
    return chosen


def _compile_all(
    loaded: LoadedProject,
    clusters: Sequence[Cluster],
    profiles: Sequence[LoadedProfile],
    lock: Lock,
    options: BuildOptions,
) -> dict[str, CompiledCluster]:
    problems = ProblemCollector()
    compiled: dict[str, CompiledCluster] = {}
    for cluster in clusters:
        try:
            compiled[cluster.name] = _compile(loaded, cluster, profiles, lock, options)
        except InputError as err:
            problems.extend(err.problems)
    problems.raise_if_any()
    return compiled


def _compile(
    loaded: LoadedProject,
    cluster: Cluster,
    profiles: Sequence[LoadedProfile],
    lock: Lock,
    options: BuildOptions,
) -> CompiledCluster:
    options.progress(f"loading cluster {cluster.name}")
    inputs = load_cluster_inputs(loaded, cluster)
    previous = lock.clusters.get(cluster.name)
    check_fresh(cluster, inputs.inventory, previous, options.now, options.allow_stale)
    options.progress(f"resolving and compiling cluster {cluster.name}")
    resolved = resolve(inputs)
    high_water = previous.gpuQuota if previous else {}
    quotas, quota_warnings = plan_quotas(resolved, high_water, options.allow_quota_decrease)
    digest = inputs_digest(resolved, profiles)
    manifests = cluster_manifests(cluster, resolved, quotas, profiles, digest)
    objects = emit_objects(decorate(manifests, cluster_backend(cluster)))
    files = render(objects)
    entry = ClusterLock(
        observedAt=resolved.observed_at.astimezone(UTC),
        inputsDigest=digest,
        treeDigest=tree_digest(files),
        gpuQuota={q.gpu_class: q.gpus for q in quotas},
        sourcesDigest=sources_digest(loaded, cluster),
    )
    return CompiledCluster(files, objects, entry, [*resolved.warnings, *quota_warnings])


def _new_lock(lock: Lock, compiled: dict[str, CompiledCluster], dropped: tuple[str, ...]) -> bytes:
    clusters = {k: v for k, v in lock.clusters.items() if k not in dropped}
    clusters.update({name: c.lock for name, c in compiled.items()})
    return lock_bytes(Lock(clusters=dict(sorted(clusters.items()))))


def _differences(
    root: Path, files: dict[str, dict[str, bytes]], dropped: tuple[str, ...], lock_path: Path, new_lock: bytes
) -> list[str]:
    lines = []
    for name, content in files.items():
        lines += describe(root / name, read_files(root / name), content)
    lines += [
        f"{root / name}: cluster no longer in the project (a build removes it)"
        for name in dropped
        if (root / name).exists()
    ]
    current = lock_path.read_bytes() if lock_path.is_file() else None
    if not same_lock(current, new_lock):
        lines.append(f"{lock_path}: " + ("missing" if current is None else "out of date"))
    return lines
