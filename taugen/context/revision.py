"""A committed tree read from a Git revision, object by object, never touching the working tree.

`git ls-tree` + `git cat-file --batch`: nothing is checked out, no index is written, and
`.gitattributes` filters (export-ignore, export-subst) that would make `git archive` lie about
the committed bytes do not apply. Symbolic links and submodules are skipped; a blob larger
than the size limit is refused before it is read (issue 32).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from taugen.core.errors import InputError, Problem
from taugen.load import limits

GIT = "git:"
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
_ENV = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}


def revision_files(rev: str, path: Path, cwd: Path) -> tuple[str, dict[str, bytes]]:
    """The label (`git:REV:PATH`) and manifest files of `path` at `rev`, by POSIX path under it."""
    top = Path(_git(cwd, rev, "rev-parse", "--show-toplevel").decode().strip())
    commit = _git(cwd, rev, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    rel = _inside(top, cwd / path, rev)
    label = f"{GIT}{rev}:{rel}"
    listing = _git(top, rev, "ls-tree", "-r", "-z", "-l", "--full-tree", commit, "--", rel)
    blobs = _blobs(listing, rel, label)
    if not blobs:
        raise bad_source(
            label, f"{rel} is not in {rev}", "check the path; it must be committed at that revision"
        )
    contents = _cat(top, rev, list(blobs.values()))
    return label, {name: contents[sha] for name, sha in blobs.items()}


def bad_source(where: str, message: str, hint: str) -> InputError:
    return InputError([Problem(Path(where), 0, 0, "diff-source", message, hint)])


def _inside(top: Path, path: Path, rev: str) -> str:
    try:
        return path.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        raise bad_source(
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
        raise bad_source(f"{GIT}{rev}", "git is not installed", "install git, or compare folders") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"unknown revision {rev!r}"
        hint = "check the revision (git log --oneline, git fetch) and that this is a Git repository"
        raise bad_source(f"{GIT}{rev}", reason.removeprefix("fatal: "), hint)
    return done.stdout
