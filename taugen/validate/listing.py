"""The files `taugen validate PATH` reads: a file, a folder's manifests, a kustomization's resources.

Each PATH is a boundary (issue 17 item 9): a pull request writes the kustomizations, so
nothing outside PATH (its folder, for a file) is read. A kustomization's `resources` must be
a list of relative paths that stay inside it: an absolute path, a `..` that leaves it, a
URL (validate is offline), a non-string, a list that leads back to a kustomization being
read (a cycle) is a finding at the entry, and is not followed. A symbolic link is followed
only when it resolves inside the boundary.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taugen.compile.nodelabels.base import NODES_DIR
from taugen.core.errors import InputError, Problem, Rule
from taugen.load.document import Document, load_documents

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
KUSTOMIZATION = "kustomization.yaml"
RULE: Rule = "kustomization"
LIST_HINT = "write `resources:` as a list of relative paths, one per item"
SHOWN = 120  # characters of an entry echoed in a message
_SHAPES = {dict: "a mapping", list: "a list", bool: "a boolean", int: "a number", float: "a number"}


@dataclass
class _Walk:
    given: Path  # the boundary as the user named it
    root: Path  # and resolved
    files: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def manifest_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Files to read, and the problems of kustomizations and folders (findings, exit 1)."""
    for path in paths:
        if not path.exists():
            raise InputError([Problem(path, 0, 0, "io", "no such file or folder", "check the path")])
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        folder = path if path.is_dir() else path.parent
        walk = _Walk(folder, folder.resolve())
        _collect(path, walk, ())
        files += walk.files
        problems += walk.problems
    return list(dict.fromkeys(files)), problems


def shard_roots(path: Path) -> list[Path]:
    """G1: a cluster folder's node-label shards, nodes/<shard>/, each a kustomization the core's
    does not list (its own Application or Flux Kustomization syncs it)."""
    if not (path.is_dir() and (path / KUSTOMIZATION).is_file()) or (path / NODES_DIR).is_symlink():
        return []
    return sorted(k.parent for k in path.glob(f"{NODES_DIR}/*/{KUSTOMIZATION}") if not k.parent.is_symlink())


def _collect(path: Path, walk: _Walk, stack: tuple[Path, ...]) -> None:
    """stack: the resolved folders being read, outermost first; one met again is a cycle."""
    if path.is_dir() and (path / KUSTOMIZATION).is_file():
        for shard in shard_roots(path):
            _kustomized(shard / KUSTOMIZATION, walk, stack)
        path = path / KUSTOMIZATION
    if path.name == KUSTOMIZATION:
        _kustomized(path, walk, stack)
    elif path.is_dir():
        _folder(path, walk, (*stack, path.resolve()))
    else:
        walk.files.append(path)


def _folder(path: Path, walk: _Walk, inner: tuple[Path, ...]) -> None:
    try:
        children = sorted(p for p in path.iterdir() if _manifest_or_folder(p))
    except OSError as err:
        walk.problems.append(Problem(path, 0, 0, "io", f"cannot be read: {err.strerror or err}", "check it"))
        return
    for child in children:
        if (why := _escapes(child, child.name, walk, inner)) is not None:
            walk.problems.append(Problem(child, 0, 0, "path", why, "remove the link"))
        else:
            _collect(child, walk, inner)


def _manifest_or_folder(path: Path) -> bool:
    return path.is_dir() or (path.suffix in MANIFEST_SUFFIXES and path.name != KUSTOMIZATION)


def _escapes(path: Path, entry: str, walk: _Walk, stack: tuple[Path, ...]) -> str | None:
    """Why path (listed as entry) may not be read: outside the boundary, or a cycle."""
    target = path.resolve()
    if not target.is_relative_to(walk.root):
        return f"{_shown(entry)} leads outside {walk.given}, the folder validated: nothing outside is read"
    folder = target if target.is_dir() else target.parent if target.name == KUSTOMIZATION else None
    if folder in stack:
        return f"{_shown(entry)} leads back to a folder that includes it: a kustomization cycle"
    return None


def _kustomized(path: Path, walk: _Walk, stack: tuple[Path, ...]) -> None:
    try:
        docs = load_documents(path)
    except InputError as err:
        walk.problems.extend(err.problems)
        return
    if not docs:
        return
    doc, inner = docs[0], (*stack, path.parent.resolve())
    if not isinstance(doc.data, Mapping):
        walk.problems.append(doc.at([]).problem(RULE, "a kustomization is a mapping", LIST_HINT))
        return
    listed = doc.data.get("resources")
    if listed is not None and not isinstance(listed, list):
        why = f"resources is {_shape(listed)}, not a list of paths"
        walk.problems.append(doc.at(["resources"]).problem(RULE, why, LIST_HINT))
        return
    for index, entry in enumerate(listed or []):
        _entry(doc, index, entry, walk, inner)


def _entry(doc: Document, index: int, entry: Any, walk: _Walk, stack: tuple[Path, ...]) -> None:
    why = _not_a_path(entry)
    target = Path(os.path.normpath(doc.path.parent / entry)) if why is None else doc.path
    try:
        why = why or _escapes(target, entry, walk, stack)
        if why is None and not target.exists():
            why = f"{_shown(entry)} is listed but does not exist"
    except OSError as err:  # a name too long, a folder that cannot be read: a finding, not exit 3
        why = f"{_shown(entry)} cannot be read: {err.strerror or err}"
    if why is not None:
        hint = "list a relative path to a file or folder inside the kustomization's folder"
        walk.problems.append(doc.at(["resources", index]).problem(RULE, why, hint))
    else:
        _collect(target, walk, stack)  # `a/../b` as kustomize reads it; the path checked is the one read


def _not_a_path(entry: Any) -> str | None:
    if not isinstance(entry, str) or not entry:
        return f"an entry of resources is {_shape(entry)}, not a relative path"
    if "://" in entry or entry.startswith("git@"):
        return f"{_shown(entry)} is a remote resource: validate is offline and reads only files inside"
    if Path(entry).is_absolute():
        return f"{_shown(entry)} is an absolute path: resources are relative to the kustomization"
    return None


def _shape(value: Any) -> str:
    if value is None or value == "":
        return "empty"
    return next((words for kind, words in _SHAPES.items() if isinstance(value, kind)), "not a string")


def _shown(text: str) -> str:
    """An entry as a message shows it: one line, at most SHOWN characters (issue 17 item 9)."""
    flat = text.encode("unicode_escape").decode("ascii")
    return flat if len(flat) <= SHOWN else f"{flat[: SHOWN - 1]}…"
