"""Build plain data straight from libyaml's events, without composing a node graph.

PyYAML's loaders compose the whole document into nodes (each with two marks) and then walk
them: for 100,000 nodes that is over a gigabyte and most of the load time. Building dicts
and lists from the event stream keeps only the data (measured on 10,000 nodes: 0.6 s and
37 MiB against 2.0 s and 146 MiB; issue 6). Scalars are resolved by the same resolvers and
constructors as `fast.FastLoader`; what this builder does not do itself (merge keys, tags on
collections) raises `Compose`, and the caller composes instead. An explicit tag beyond the
core schema (`!!binary`, `!!timestamp`, `!!set`, ...) raises `Foreign` (issue 17 item 9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from yaml import events

from taugen.load.limits import TAGS

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
UNTAGGED = (None, "!")
MAP, SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
MAX_TAGS = 1 << 16  # plain scalars whose tag is remembered, per loader class (then it starts over)
_TAGS: dict[type, dict[str, str]] = {}


class Compose(Exception):
    """Input this builder leaves to the composing loader."""


class Foreign(Exception):
    """An explicit tag that is not one of the core schema's (README: core tags only)."""


def check_tag(tag: str | None) -> None:
    if tag is not None and tag not in TAGS:
        raise Foreign(tag)


class Duplicate(Exception):
    """A key given twice in one mapping."""


class _Open:
    """A mapping or sequence being filled, and a mapping's key waiting for its value."""

    __slots__ = ("container", "has_key", "key")

    def __init__(self, container: dict[Any, Any] | list[Any]) -> None:
        self.container = container
        self.key: Any = None
        self.has_key = False

    def add(self, value: Any) -> None:
        container = self.container
        if type(container) is list:
            container.append(value)
        elif self.has_key:
            if self.key in container:
                raise Duplicate(repr(self.key))
            container[self.key] = value
            self.has_key = False
        else:
            self.key, self.has_key = value, True


def load_all(loader: Any, scalar: Callable[[str, str], Any]) -> list[Any]:
    """Every document the (libyaml) `loader` parses; `scalar(tag, value)` builds a scalar."""
    documents: list[Any] = []
    stack: list[_Open] = []
    anchors: dict[str, Any] = {}
    tags = _TAGS.setdefault(type(loader), {})
    while True:
        event = loader.get_event()
        kind = type(event)
        if kind is events.ScalarEvent:
            # most scalars: an untagged plain string met before (what scalar_value would say)
            tag = tags.get(event.value) if event.tag is None and event.implicit[0] else None
            value = event.value if tag == STR else scalar_value(loader, event, scalar, tags)
        elif kind is events.MappingStartEvent or kind is events.SequenceStartEvent:
            stack.append(_open(event, kind is events.MappingStartEvent, anchors))
            continue
        elif kind is events.MappingEndEvent or kind is events.SequenceEndEvent:
            value = stack.pop().container
        elif kind is events.AliasEvent:
            value = anchors[event.anchor]
        elif kind is events.StreamEndEvent:
            return documents
        else:  # stream and document starts and ends
            continue
        if kind is events.ScalarEvent and event.anchor:
            anchors[event.anchor] = value
        if stack:
            stack[-1].add(value)
        else:
            documents.append(value)


def scalar_value(
    loader: Any, event: Any, scalar: Callable[[str, str], Any], tags: dict[str, str] | None = None
) -> Any:
    """The value of a scalar event: resolved as libyaml's loaders resolve it, then built.

    `tags`: plain scalars' tags already resolved by this loader's class. A plain scalar's tag
    is a function of its text and the class's implicit resolvers (taugen adds no path
    resolvers), and a tree repeats most of its three million scalars (issue 20)."""
    tag = event.tag
    check_tag(tag)
    if tag is None or tag == "!":
        if tags is not None and event.implicit[0]:
            tag = tags.get(event.value) or _remember(loader, event, tags)
        else:
            tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag == STR:
        return event.value
    if tag == MERGE:
        raise Compose("a merge key")
    return scalar(tag, event.value)


def _remember(loader: Any, event: Any, tags: dict[str, str]) -> str:
    if len(tags) >= MAX_TAGS:
        tags.clear()
    tag: str = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
    tags[event.value] = tag
    return tag


def _open(event: Any, mapping: bool, anchors: dict[str, Any]) -> _Open:
    check_tag(event.tag)
    if event.tag not in UNTAGGED and event.tag != (MAP if mapping else SEQ):
        raise Compose(f"tag {event.tag}")
    opened = _Open({} if mapping else [])
    if event.anchor:
        anchors[event.anchor] = opened.container
    return opened
