"""Read an output tree from disk or from a Git revision, never touching the working tree.

A revision is read object by object (`git ls-tree` + `git cat-file --batch`): nothing is
checked out, no index is written, and `.gitattributes` filters (export-ignore, export-subst)
that would make `git archive` lie about the committed bytes do not apply.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from taugen.errors import InputError, Problem
from taugen.load import limits
from taugen.load.document import read_bounded

GIT = "git:"
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
_ENV = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}


@dataclass(frozen=True)
class Spec:
    """Where a tree lives: `rev` None is the working tree; `path` None is "the default path"."""

    rev: str | None
    path: Path | None


@dataclass(frozen=True)
class Tree:
    label: str  # as shown to the reader: `out`, `git:origin/main:out`
    files: dict[str, bytes]  # manifest files by POSIX path relative to the tree's root


def parse_spec(text: str) -> Spec:
    """`PATH`, `git:REV` or `git:REV:PATH` (PATH relative to the current folder)."""
    if not text.startswith(GIT):
        return Spec(None, Path(text))
    rev, _, path = text[len(GIT) :].partition(":")
    if not rev or rev.startswith("-"):
        raise _bad(text, "not a Git revision", "write git:REV or git:REV:PATH, e.g. git:origin/main")
    return Spec(rev, Path(path) if path else None)


def pair_specs(base: str, head: str | None, default: Path) -> tuple[Spec, Spec]:
    """HEAD defaults to the working tree. A revision without a path takes the other side's path;
    the working tree without one takes BASE's when BASE is a revision (the same tree, before and
    after), else `default`, the project's output root."""
    old = parse_spec(base)
    new = parse_spec(head) if head is not None else Spec(None, None)
    old_path = old.path or new.path or default
    new_path = new.path or (old_path if new.rev is not None or old.rev is not None else default)
    return Spec(old.rev, old_path), Spec(new.rev, new_path)


def read_tree(spec: Spec, cwd: Path) -> Tree:
    path = spec.path if spec.path is not None else Path()
    if spec.rev is None:
        return Tree(path.as_posix(), _from_disk(cwd / path))
    return _from_git(spec.rev, path, cwd)


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


def _from_git(rev: str, path: Path, cwd: Path) -> Tree:
    top = Path(_git(cwd, rev, "rev-parse", "--show-toplevel").decode().strip())
    commit = _git(cwd, rev, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    rel = _inside(top, cwd / path, rev)
    label = f"{GIT}{rev}:{rel}"
    listing = _git(top, rev, "ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", rel)
    blobs = _blobs(listing, rel, label)
    if not blobs:
        raise _bad(label, f"{rel} is not in {rev}", "check the path; it must be committed at that revision")
    contents = _cat(top, rev, list(blobs.values()))
    return Tree(label, {name: contents[sha] for name, sha in blobs.items()})


def _inside(top: Path, path: Path, rev: str) -> str:
    try:
        return path.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        raise _bad(
            f"{GIT}{rev}:{path}", f"{path} is outside the repository {top}", "name a path inside it"
        ) from None


def _blobs(listing: bytes, rel: str, label: str) -> dict[str, str]:
    """Manifest blobs (no symlinks, no submodules) by path relative to `rel`; one larger than the
    size limit is refused before it is read (issue 32)."""
    found: dict[str, str] = {}
    for entry in filter(None, listing.decode().split("\0")):
        meta, _, name = entry.partition("\t")
        mode, kind, sha, size = meta.split()
        if kind != "blob" or mode == "120000" or not name.endswith(MANIFEST_SUFFIXES):
            continue
        inner = name if rel == "." else name[len(rel) + 1 :] or Path(name).name
        limits.check_size(Path(label) / inner, int(size))
        found[inner] = sha
    return dict(sorted(found.items()))


def _cat(top: Path, rev: str, shas: list[str]) -> dict[str, bytes]:
    out = _git(top, rev, "cat-file", "--batch", stdin="".join(f"{s}\n" for s in shas).encode())
    found: dict[str, bytes] = {}
    at = 0
    for sha in shas:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        found[sha] = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1
    return found


def _git(cwd: Path, rev: str, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", "--literal-pathspecs", *args], cwd=cwd, input=stdin, capture_output=True, env=_ENV
        )
    except FileNotFoundError:
        raise _bad(f"{GIT}{rev}", "git is not installed", "install git, or compare folders") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"unknown revision {rev!r}"
        hint = "check the revision (git log --oneline, git fetch) and that this is a Git repository"
        raise _bad(f"{GIT}{rev}", reason.removeprefix("fatal: "), hint)
    return done.stdout


def _bad(where: str, message: str, hint: str) -> InputError:
    return InputError([Problem(Path(where), 0, 0, "diff-source", message, hint)])
