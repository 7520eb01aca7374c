"""Nothing outside the output root is written, no input lies inside it (§4), and the root
holds nothing but the project's cluster folders (issue 17: a GitOps tool deploys every one)
and G6's `_argocd/` and `_flux/`, taugen's too (a build rewrites or removes them)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from pathlib import Path

from taugen.core.errors import InputError, Problem
from taugen.core.names import GITOPS_FOLDERS
from taugen.core.repository import repository_root
from taugen.load.profiles import profile_files
from taugen.load.project import LoadedProject

HINT = "set `output:` in taugen.yaml to a folder that holds only taugen's output"


def check_output_root(loaded: LoadedProject, root: Path) -> None:
    check_gitops_path(loaded)
    where = loaded.doc.at(["output"])
    resolved = root.resolve()
    if root.is_symlink():
        target = root.readlink()
        message = f"output root {root} is a symbolic link (to {target}): a build would write through it"
        raise InputError([where.problem("output", message, HINT)])
    if root.exists() and not root.is_dir():
        raise InputError([where.problem("output", f"output root {root} is a file, not a folder", HINT)])
    if root == loaded.output_root(None) and (real := loaded.outside(root)) is not None:
        message = f"output root {root} leads to {real}, outside the project {loaded.root}"
        raise InputError([where.problem("output", message, HINT)])  # issue 32: a link on the way
    problems: list[Problem] = []
    for source in _inputs(loaded):
        if source.resolve() == resolved or resolved in source.resolve().parents:
            problems.append(
                where.problem(
                    "output",
                    f"output root {root} contains the input {source}: a build would replace it",
                    HINT,
                )
            )
    if problems:
        raise InputError(problems)


def check_gitops_path(loaded: LoadedProject) -> None:
    """G6, issue 32: the Applications and Kustomizations point at `gitops.path`/`output`/<cluster>;
    a `gitops.path` that is not where taugen.yaml lies in its repository points them at a folder
    that taugen never compiles and `build --check` never reads (a pull request's `shadow/`)."""
    gitops = loaded.project.gitops
    repository = repository_root(loaded.root)
    if gitops is None or repository is None:  # no repository: nothing to deploy it from yet
        return
    actual = loaded.root.relative_to(repository).as_posix()
    if posixpath.normpath(gitops.path) != actual:
        message = (
            f"gitops.path {gitops.path!r} is not the folder of taugen.yaml in its repository "
            f"({actual!r}): Argo CD and Flux would deploy folders this build does not compile"
        )
        hint = f"set `gitops.path: {actual}` (or remove it when taugen.yaml is at the repository's root)"
        raise InputError([loaded.doc.at(["gitops", "path"]).problem("project", message, hint)])


def check_cluster_folders(loaded: LoadedProject, root: Path, leaving: Iterable[str] = ()) -> None:
    """Every entry of the output root is a project cluster's folder (or that of a cluster
    leaving the project, which the build removes) or a G6 folder; none is a link or a file."""
    if not root.is_dir() or root.is_symlink():
        return
    where = loaded.doc.at(["clusters"])
    known = {c.name for c in loaded.project.clusters} | set(leaving) | set(GITOPS_FOLDERS)
    problems = [
        where.problem("output", f"{entry}: {why}", hint)
        for entry in sorted(root.iterdir())
        if (found := _odd(entry, known)) is not None
        for why, hint in [found]
    ]
    if problems:
        raise InputError(problems)


def _odd(entry: Path, known: set[str]) -> tuple[str, str] | None:
    if entry.name not in known:
        return (
            "not the folder of a cluster of this project: Argo CD or Flux would deploy it",
            "remove it, or add the cluster to taugen.yaml",
        )
    if entry.is_symlink() or not entry.is_dir():
        kind = "a symbolic link" if entry.is_symlink() else "not a folder"
        return (f"is {kind}: taugen never writes through one", "remove it; the next build writes the folder")
    return None


def _inputs(loaded: LoadedProject) -> list[Path]:
    files = [loaded.doc.path, loaded.lock_path]
    for cluster in loaded.project.clusters:
        files.append(loaded.root / cluster.inventory)
        files += [loaded.root / r for r in cluster.rules]
    return files + profile_files(loaded.profile_sources())
