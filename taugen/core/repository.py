"""The Git repository a project lies in: the nearest folder at or above it holding `.git` (a
folder, or the file of a worktree or submodule), found without running git (issue 32).

It bounds the upward search for taugen.yaml (a parent project beyond it is another repository's)
and tells where taugen.yaml really lies in the repository, which `gitops.path` must say.
"""

from __future__ import annotations

from pathlib import Path

GIT = ".git"
PROJECT_FILE = "taugen.yaml"


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` (absolute) that holds `.git`, else None."""
    return next((f for f in (folder, *folder.parents) if (f / GIT).exists()), None)


def find_project(here: Path) -> Path | None:
    """taugen.yaml in `here` or the nearest parent folder (as git finds .git), never above the
    repository's root: a taugen.yaml beyond it belongs to another project."""
    for folder in (here, *here.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder / PROJECT_FILE
        if (folder / GIT).exists():
            return None
    return None
