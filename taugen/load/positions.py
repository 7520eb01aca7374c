"""Where a value sits in a file, found from libyaml's events (issue 6).

A problem in a 100,000-node inventory needs one line and column. Parsing the file again with
ruamel's round-trip loader to get them took minutes and gigabytes on a million lines; walking
the event stream to the one path asked for takes seconds and keeps nothing. The answer is the
value's start (or its key's), or the nearest existing parent's when the path goes further
than the document, as the round-trip loader answers (document.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any

from yaml import events

from taugen.load.events import Compose, scalar_value

Mark = tuple[int, int]  # 0-based line and column
Scalar = Callable[[str, str], Any]
_START = (events.MappingStartEvent, events.SequenceStartEvent)
_END = (events.MappingEndEvent, events.SequenceEndEvent)


def position(loader: Any, scalar: Scalar, index: int, loc: Sequence[str | int], key: bool) -> Mark:
    """Position of `loc` in the `index`-th non-empty document the loader parses."""
    root = _document(loader, scalar, index)
    return _descend(loader, scalar, root, loc, key)


def _document(loader: Any, scalar: Scalar, index: int) -> Any:
    seen = -1
    while True:
        event = loader.get_event()
        if isinstance(event, events.StreamEndEvent):
            raise LookupError(f"no document {index}")
        if isinstance(event, events.DocumentStartEvent):
            root = loader.get_event()
            empty = isinstance(root, events.ScalarEvent) and scalar_value(loader, root, scalar) is None
            seen += 0 if empty else 1
            if seen == index and not empty:
                return root
            _skip(loader, root)


def _descend(loader: Any, scalar: Scalar, node: Any, loc: Sequence[str | int], key: bool) -> Mark:
    best = _mark(node)
    for depth, step in enumerate(loc):
        last = depth == len(loc) - 1
        found = _child(loader, scalar, node, step)
        if found is None:
            return best
        key_event, node = found
        if last:
            return _mark(key_event if key and key_event is not None else node)
        best = _mark(node)
    return best


def _child(loader: Any, scalar: Scalar, node: Any, step: str | int) -> tuple[Any, Any] | None:
    """(key event or None, value event) of `step` under `node`; None when it has no such child."""
    if isinstance(node, events.MappingStartEvent):
        while not isinstance(key := loader.get_event(), events.MappingEndEvent):
            name = _key_value(loader, scalar, key)
            _skip(loader, key)  # a collection as a key
            value = loader.get_event()
            if name == step:
                return key, value
            _skip(loader, value)
        return None
    if isinstance(node, events.SequenceStartEvent) and isinstance(step, int) and step >= 0:
        for _ in range(step):
            item = loader.get_event()
            if isinstance(item, events.SequenceEndEvent):
                return None
            _skip(loader, item)
        item = loader.get_event()
        return None if isinstance(item, events.SequenceEndEvent) else (None, item)
    return None


def _key_value(loader: Any, scalar: Scalar, key: Any) -> Any:
    if not isinstance(key, events.ScalarEvent):
        return _NO_KEY  # a collection as a key: never a step of ours
    try:
        return scalar_value(loader, key, scalar)
    except Compose:  # the merge key `<<`: what it brings in has no position of its own
        return _NO_KEY


def _skip(loader: Any, *nodes: Any) -> None:
    """Consume the rest of each node whose first event is given."""
    for node in nodes:
        depth = 1 if isinstance(node, _START) else 0
        while depth:
            event = loader.get_event()
            depth += 1 if isinstance(event, _START) else -1 if isinstance(event, _END) else 0


def _mark(event: Any) -> Mark:
    return (event.start_mark.line, event.start_mark.column)


_NO_KEY = object()
_SCALAR, _MAPPING, _SEQUENCE = 0, 1, 2


class Index:
    """Every node of one document, flat, from one walk of its events: for a document asked for
    many positions (issue 32: each lookup walked the file from its start, so an inventory with
    4,000 problems took minutes). A container's children are listed the first time a lookup
    enters it; the answers are `position`'s."""

    def __init__(self, loader: Any, scalar: Scalar, index: int) -> None:
        self._kind, self._line, self._col, self._end = bytearray(), array("q"), array("q"), array("q")
        self._key: list[Any] = []  # a mapping key's value; None for every other node
        self._maps: dict[int, dict[Any, tuple[int, int]]] = {}
        self._lists: dict[int, list[int]] = {}
        self._walk(loader, scalar, _document(loader, scalar, index))

    def _walk(self, loader: Any, scalar: Scalar, event: Any) -> None:
        open_: list[list[int]] = []  # [node, is a mapping, children so far]
        while True:
            if isinstance(event, _END):
                node = open_.pop()[0]
                self._end[node] = len(self._kind)
                if not open_:
                    return
            else:
                is_key = bool(open_) and open_[-1][1] == 1 and open_[-1][2] % 2 == 0
                if open_:
                    open_[-1][2] += 1
                node = len(self._kind)
                kind = _SCALAR if not isinstance(event, _START) else _MAPPING
                kind = _SEQUENCE if isinstance(event, events.SequenceStartEvent) else kind
                self._kind.append(kind)
                self._line.append(event.start_mark.line)
                self._col.append(event.start_mark.column)
                self._end.append(node + 1)
                self._key.append(_key_value(loader, scalar, event) if is_key else None)
                if kind == _SCALAR and not open_:
                    return
                if kind != _SCALAR:
                    open_.append([node, int(kind == _MAPPING), 0])
            event = loader.get_event()

    def position(self, loc: Sequence[str | int], key: bool) -> Mark:
        node, best = 0, self._mark(0)
        for depth, step in enumerate(loc):
            found = self._child(node, step)
            if found is None:
                return best
            key_node, node = found
            if depth == len(loc) - 1:
                return self._mark(key_node if key and key_node is not None else node)
            best = self._mark(node)
        return best

    def _child(self, node: int, step: str | int) -> tuple[int | None, int] | None:
        if self._kind[node] == _MAPPING:
            return self._mapping(node).get(step)
        if self._kind[node] == _SEQUENCE and isinstance(step, int) and step >= 0:
            items = self._sequence(node)
            return (None, items[step]) if step < len(items) else None
        return None

    def _mapping(self, node: int) -> dict[Any, tuple[int, int]]:
        found = self._maps.get(node)
        if found is None:
            found = self._maps[node] = {}
            child = node + 1
            while child < self._end[node]:
                value = self._end[child]
                found.setdefault(self._key[child], (child, value))  # the first, as `_child` finds
                child = self._end[value]
        return found

    def _sequence(self, node: int) -> list[int]:
        found = self._lists.get(node)
        if found is None:
            found = self._lists[node] = []
            child = node + 1
            while child < self._end[node]:
                found.append(child)
                child = self._end[child]
        return found

    def _mark(self, node: int) -> Mark:
        return (self._line[node], self._col[node])
