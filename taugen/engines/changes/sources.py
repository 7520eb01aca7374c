"""`taugen diff`'s two sides: `PATH`, `git:REV` or `git:REV:PATH`, read by the floor's one
committed-tree reader (context/committed.py), which never touches the working tree."""

from __future__ import annotations

from pathlib import Path

from taugen.context.committed import Committed
from taugen.context.revision import GIT, bad_source


def parse_spec(text: str) -> Committed:
    """`PATH`, `git:REV` or `git:REV:PATH` (PATH relative to the current folder)."""
    if not text.startswith(GIT):
        return Committed(None, Path(text))
    rev, _, path = text[len(GIT) :].partition(":")
    if not rev or rev.startswith("-"):
        raise bad_source(text, "not a Git revision", "write git:REV or git:REV:PATH, e.g. git:origin/main")
    return Committed(rev, Path(path) if path else None)


def pair_specs(base: str, head: str | None, default: Path) -> tuple[Committed, Committed]:
    """HEAD defaults to the working tree. A revision without a path takes the other side's path;
    the working tree without one takes BASE's when BASE is a revision (the same tree, before and
    after), else `default`, the project's output root."""
    old = parse_spec(base)
    new = parse_spec(head) if head is not None else Committed(None, None)
    old_path = old.path or new.path or default
    new_path = new.path or (old_path if new.rev is not None or old.rev is not None else default)
    return Committed(old.rev, old_path), Committed(new.rev, new_path)
