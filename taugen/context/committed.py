"""The one reader of committed trees: a folder on disk or a Git revision, and what is
scheduler-specific in one (issue 33).

`read_committed` takes a `Committed` (a folder, or `git:REV:PATH`'s revision and path) and gives
its manifest files; diff compares two of them, and `CompiledTree.of` (context/tree.py) reads a
cluster's objects from one as from out/<cluster>/. What differs per scheduler (which files hold
its queues and flavors) each scheduler says in its `files` (taugen/schedulers/registry.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.context.revision import MANIFEST_SUFFIXES, revision_files
from taugen.core.errors import InputError, Problem
from taugen.load.document import read_bounded


@dataclass(frozen=True)
class Committed:
    """Where a tree lives: `rev` None is the working tree; `path` None is "the default path"."""

    rev: str | None
    path: Path | None


@dataclass(frozen=True)
class TreeFiles:
    label: str  # as shown to the reader: `out`, `git:origin/main:out`
    files: dict[str, bytes]  # manifest files by POSIX path relative to the tree's root

    def under(self, folder: str) -> TreeFiles | None:
        """The files of one folder of the tree (a cluster's, in an output root); None: no such folder."""
        prefix = f"{folder}/"
        inner = {k.removeprefix(prefix): v for k, v in self.files.items() if k.startswith(prefix)}
        return TreeFiles(f"{self.label}/{folder}", inner) if inner else None


def read_committed(where: Committed, cwd: Path) -> TreeFiles:
    """The manifest files of a folder (relative to `cwd`) or of a path at a Git revision."""
    path = where.path if where.path is not None else Path()
    if where.rev is None:
        return TreeFiles(path.as_posix(), _from_disk(cwd / path))
    return TreeFiles(*revision_files(where.rev, path, cwd))


def _from_disk(root: Path) -> dict[str, bytes]:
    """Every manifest file under `root`, each read within the size limit; a symbolic link inside
    the tree is refused, never followed (issue 32: a link out of the tree put another file's
    objects, a kubeconfig's, into the pull request's comment), as a Git revision's are skipped."""
    if not root.exists():
        raise InputError([Problem(root, 0, 0, "io", "no such file or folder", "check the path")])
    try:
        if root.is_file():
            return {root.name: read_bounded(root)}
        entries = sorted(root.rglob("*"))  # a linked folder is listed, never entered
    except OSError as err:
        where = Path(err.filename) if err.filename else root
        raise InputError(
            [Problem(where, 0, 0, "io", f"cannot read: {err.strerror}", "check permissions")]
        ) from None
    links = [p for p in entries if p.is_symlink()]
    if links:
        hint = "replace the link with the file, or remove it"
        raise InputError(
            [
                Problem(p, 0, 0, "io", f"is a symbolic link (to {p.readlink()}): diff follows none", hint)
                for p in links
            ]
        )
    files = (p for p in entries if p.is_file() and p.suffix in MANIFEST_SUFFIXES)
    return {p.relative_to(root).as_posix(): read_bounded(p) for p in files}
