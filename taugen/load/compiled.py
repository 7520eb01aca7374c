"""Read a compiled tree's YAML back as plain data: YAML 1.2's core schema, nothing more.

Every file under out/ (and each side of a diff) is written by whoever opened the pull request
(issue 17). PyYAML read them by YAML 1.1's rules: `y` was a boolean, `2026-11-29` a date, and
`!!binary`, `!!timestamp` or `!!set` built what they named, so taugen compared and simulated
other objects than the inputs' loader and the API server see. This is the one reader of trees:
the input loader's fast path (libyaml's events, fast.py) with the core schema's resolvers —
null, bool, int, float, a string otherwise (a timestamp too, as go-yaml reads one into a map)
— and an explicit tag beyond the core schema's refused. What the fast path cannot read (a tag,
a duplicate key, a syntax error, a directive) is an InputError, with its position from the
round-trip loader where it has one. taugen writes none of these (emit.py quotes every string
that would read as another type), so its own trees read exactly as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml.resolver import implicit_resolvers

from taugen.core.errors import InputError, Problem
from taugen.load import fast, limits, native
from taugen.load.document import Document, parse_documents, read_text

CORE = {f"tag:yaml.org,2002:{t}" for t in ("null", "bool", "int", "float", "merge")}
HINT = "a compiled tree is what `taugen build` writes: run it, or fix the file"


class TreeLoader(fast.FastLoader):
    """fast.FastLoader without the resolvers the core schema lacks (timestamp, value, yaml)."""

    yaml_implicit_resolvers: dict[Any, list[tuple[str, Any]]] = {}  # noqa: RUF012


for _versions, _tag, _pattern, _first in implicit_resolvers:
    if fast.YAML_1_2 in _versions and _tag in CORE:
        TreeLoader.add_implicit_resolver(_tag, _pattern, _first)


def tree_documents(path: Path, text: str) -> list[Any]:
    """The non-empty documents of `text` (named `path` in problems) as plain data."""
    limits.check_text(path, text)
    docs = native.load_all(text, timestamps=False)  # issue 36: yaml-rs where it reads alike
    if docs is None:
        docs = _event_documents(path, text)
    if "&" in text:
        for doc in docs:
            limits.check_data(path, text, doc)
    return docs


def _event_documents(path: Path, text: str) -> list[Any]:
    try:
        return [d for d in fast.load_all(text, TreeLoader) if d is not None]
    except fast.Unsupported as err:
        parse_documents(path, text)  # raises the problem, with its position
        why = "a directive (%YAML, %TAG)" if text.startswith("%") or "\n%" in text else str(err)
        raise InputError(
            [Problem(path, 1, 1, "yaml", f"not YAML as taugen writes it: {why}", HINT)]
        ) from None


def tree_file(path: Path) -> list[Document]:
    """tree_documents of a file, read as read_text reads every input (bounded, UTF-8), as Documents
    whose positions are found when a problem asks."""
    return text_documents(path, read_text(path))


def tree_bytes(path: Path, content: bytes) -> list[Document]:
    """tree_file of a file's bytes already read (a Git revision's blob, a diff side's file)."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(
            [Problem(path, 1, 1, "yaml", f"not UTF-8: byte {err.start} cannot be decoded", HINT)]
        ) from None
    return text_documents(path, text)


def text_documents(path: Path, text: str) -> list[Document]:
    """tree_documents as Documents, whose positions are found when a problem asks."""
    return [Document(path, d, text=text, index=i) for i, d in enumerate(tree_documents(path, text))]
