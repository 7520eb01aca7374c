"""Describe, object by object, how a tree on disk differs from what a build would write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taugen.core.errors import InputError
from taugen.emit.canonical import KUSTOMIZATION
from taugen.load.compiled import tree_documents
from taugen.write.journal import Files, diff_files


def describe(folder: Path, old: Files, new: Files) -> list[str]:
    """One line per differing object (or file, when the objects cannot be told apart)."""
    diff = diff_files(old, new)
    lines = [f"{folder / rel}: missing (a build writes it)" for rel in diff.added]
    lines += [f"{folder / rel}: not produced by taugen (a build removes it)" for rel in diff.removed]
    for rel in diff.changed:
        lines += _changed(folder / rel, old[rel], new[rel])
    return sorted(lines)


def _changed(path: Path, old: bytes, new: bytes) -> list[str]:
    before, after = _objects(path, old), _objects(path, new)
    if before is None or after is None or path.name == KUSTOMIZATION:
        return [f"{path}: differs from what taugen writes"]
    lines = [f"{path}: {ident} missing" for ident in sorted(set(after) - set(before))]
    lines += [f"{path}: {ident} not produced by taugen" for ident in sorted(set(before) - set(after))]
    lines += [
        f"{path}: {ident} differs"
        for ident in sorted(set(before) & set(after))
        if before[ident] != after[ident]
    ]
    return lines or [f"{path}: same objects, different text (comments or formatting)"]


def _objects(path: Path, content: bytes) -> dict[str, Any] | None:
    """The file's objects as YAML 1.2 reads them (load/compiled.py); None when it cannot be read."""
    try:
        docs = tree_documents(path, content.decode("utf-8"))
    except (InputError, UnicodeDecodeError):
        return None
    found: dict[str, Any] = {}
    for doc in docs:
        if not isinstance(doc, dict) or not isinstance(doc.get("metadata"), dict):
            return None
        meta = doc["metadata"]
        namespace = f"{meta['namespace']}/" if meta.get("namespace") else ""
        found[f"{doc.get('kind')}/{namespace}{meta.get('name')}"] = doc
    return found
