"""Partial Nodes ordered and written without the general walks (issue 36).

A 100,000-node tree is almost all partial Nodes (compile/nodelabels/node.py, decorated): an
object of `apiVersion`, `kind` and `metadata` holding a `name` and two maps of strings. The
general path orders an object (canonical.ordered) and writes it (blocks.block) with a call per
map and per value; here each is one loop over the labels, and what every Node shares (the lines
before its name, its annotations) is written once per build. The results are exactly the
general path's: `tests/property/test_emit_nodes.py` holds them equal on drawn objects, and an
object of any other shape, or with a value the general path would not write as a plain line,
gets None and takes the general path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from taugen.emit.blocks import simple_key

_TOP = frozenset({"apiVersion", "kind", "metadata"})
_META = frozenset({"name", "labels", "annotations"})
_STRINGS = frozenset({str})
_KEPT = 64  # heads and annotation sets remembered (a tree has a few of each)
Spell = Callable[[str], str]


def ordered_node(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The object as canonical.ordered orders it, when it is a partial Node's shape (its labels
    and annotations maps of strings); None otherwise."""
    meta = _metadata(obj)
    if meta is None:
        return None
    labels, notes = meta["labels"], meta["annotations"]
    if not (_strings(labels.values()) and _strings(notes.values())):
        return None  # a map or list inside: canonical.ordered sorts inside it
    meta_out = {
        "name": meta["name"],
        "labels": {k: labels[k] for k in sorted(labels)},
        "annotations": {k: notes[k] for k in sorted(notes)},
    }
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": meta_out}


def _metadata(obj: dict[str, Any]) -> dict[str, Any] | None:
    if obj.keys() != _TOP or type(obj["apiVersion"]) is not str or type(obj["kind"]) is not str:
        return None
    meta = obj["metadata"]
    if type(meta) is not dict or meta.keys() != _META or type(meta["name"]) is not str:
        return None
    if type(meta["labels"]) is not dict or type(meta["annotations"]) is not dict:
        return None
    return meta


class NodeWriter:
    """Ordered partial Nodes as canonical.dump writes them, for one spelling (canonical's)."""

    def __init__(self, spell: Spell) -> None:
        self._spell = spell
        self._heads: dict[tuple[str, str], str | None] = {}
        self._notes: dict[tuple[tuple[str, str], ...], str | None] = {}

    def __call__(self, doc: dict[str, Any]) -> str | None:
        """The document as dump writes it (with its `---` line), or None: then dump's general
        path writes it (blocks.block, or PyYAML where blocks gives up)."""
        meta = _metadata(doc)
        if meta is None:
            return None
        head = self._head(doc["apiVersion"], doc["kind"])
        notes = self._annotations(meta["annotations"])
        name = _lines(self._spell, "  ", {"name": meta["name"]})
        labels = _lines(self._spell, "    ", meta["labels"])
        if head is None or notes is None or name is None or labels is None:
            return None
        return "".join([head, *name, "  labels:\n", *labels, notes])

    def _head(self, api: str, kind: str) -> str | None:
        """The lines before the name, once per apiVersion and kind."""
        if (api, kind) not in self._heads:
            if len(self._heads) >= _KEPT:
                self._heads.clear()
            lines = _lines(self._spell, "", {"apiVersion": api, "kind": kind})
            self._heads[api, kind] = None if lines is None else "".join(["---\n", *lines, "metadata:\n"])
        return self._heads[api, kind]

    def _annotations(self, notes: dict[str, Any]) -> str | None:
        """Written once per distinct set: every Node has the same few."""
        if not (_strings(notes) and _strings(notes.values())):
            return None  # a map inside (not hashable), a key blocks leaves to libyaml
        items = tuple(notes.items())  # of exact strings: equal only when the same text
        if items not in self._notes:
            if len(self._notes) >= _KEPT:
                self._notes.clear()
            lines = _lines(self._spell, "    ", notes)
            self._notes[items] = None if lines is None else "".join(["  annotations:\n", *lines])
        return self._notes[items]


def _strings(items: Iterable[Any]) -> bool:
    """Whether every item is an exact `str`, tested in C (no call per item)."""
    return _STRINGS.issuperset(map(type, items))


def _lines(spell: Spell, indent: str, node: dict[str, Any]) -> list[str] | None:
    """`key: value` lines of a map of one-line strings, as blocks writes them; None where blocks
    gives up (an empty map or value, a key it leaves to libyaml, a string it would fold)."""
    if not node:
        return None
    lines = []
    for key, value in node.items():
        if type(value) is not str or not value or "\n" in value:
            return None
        if type(key) is not str or not simple_key(key) or "\n" in (text := spell(value)):
            return None
        lines.append(f"{indent}{key}: {text}\n")
    return lines
