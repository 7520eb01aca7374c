"""Limits on input size and shape (issue 7): refuse hostile YAML before it costs anything.

A file larger than MAX_BYTES is refused before it is read. Nesting is bounded before any YAML
parser sees the text, because parse time grows with the square of the depth (libyaml and
ruamel alike: 8,000 nested brackets take seconds, 100,000 do not finish). Aliases are bounded
after the fast load, which keeps an alias as a shared object: a "billion laughs" document
loads in microseconds, and only a walk that expanded it would pay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, NodeEvent

from taugen.core.errors import InputError, Problem, Rule

MAX_BYTES = 160 * 1024 * 1024  # a 10,000-node `kubectl get nodes -o json` with images is ~140 MB
MAX_DEPTH = 64  # collections inside collections; taugen's inputs nest fewer than 10 levels
MAX_ALIASES = 1_000  # uses of an alias (*name) to a list or a map
MAX_ALIAS_NODES = 100_000  # nodes the aliases bring in, nested aliases expanded
CORE = "tag:yaml.org,2002:"
TAGS = {"!", *(CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq"))}
RULE: Rule = "yaml"
ALIAS_HINT = "write the values out instead of using YAML aliases (*name)"


def check_size(path: Path, size: int) -> None:
    """Refuse a file larger than the document size limit, before reading it."""
    if size > MAX_BYTES:
        message = f"the file is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (160 MiB)"
        hint = "split the input; a `kubectl get nodes -o json` export shrinks a lot without .status.images"
        raise InputError([Problem(path, 1, 1, RULE, message, hint)])


def check_text(path: Path, text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before parsing. A cheap bound on the depth (C-speed
    regular expressions) clears ordinary files; only a file it cannot clear is scanned event by
    event, a scan that stops at the first level too deep."""
    if too_deep(text):
        _raise_found(path, text)


def too_deep(text: str) -> bool:
    """Whether check_text must look at the text event by event: its cheap bound passes MAX_DEPTH."""
    return _depth_bound(text) > MAX_DEPTH


def check_data(path: Path, text: str, data: Any) -> None:
    """Refuse nesting deeper than the depth limit and more aliases than the alias limit."""
    if "&" not in text:  # no anchor, no alias; the depth was bounded by check_text
        return
    found = _walk(data)
    if found is not None:
        _raise_found(path, text, Problem(path, 1, 1, RULE, found, ALIAS_HINT))


def check_events(path: Path, text: str) -> None:
    """The exact check, event by event with positions, for the round-trip loader (which
    would otherwise build whatever a tag asks for and recurse as deep as the input goes)."""
    _raise_found(path, text, None, tags=True)


def _raise_found(path: Path, text: str, fallback: Problem | None = None, *, tags: bool = False) -> None:
    problem = _scan(path, text, tags=tags) or fallback
    if problem is not None:
        raise InputError([problem])


# `[` ... `]` (or `{` ... `}`) with no bracket, quote or `#` inside, except quoted strings without
# brackets: removing all of them once removes at most one level of flow nesting. Inside a real
# flow collection every bracket outside a string is real, so the count of passes bounds its depth.
# One pattern per bracket, each led by its literal: the regular expression engine then jumps from
# one bracket to the next, where one pattern led by either looked at every character (issue 36:
# 0.27 s against 0.10 s on a 100,000-node inventory).
_INSIDE = r"""(?:[^\[\]{}"'#]++|"[^"\\\[\]{}\n]*+"|'[^'\[\]{}\n]*+')*+"""
_PAIRS = (
    ("[", re.compile(r"\[" + _INSIDE + r"\]")),
    ("{", re.compile(r"\{" + _INSIDE + r"\}")),
)
PASSES = 8  # ordinary inputs nest flow collections two or three deep; JSON goes to the scan
UNKNOWN = MAX_DEPTH + 1


def _depth_bound(text: str) -> int:
    """An upper bound on the nesting depth, or UNKNOWN (then the event scan decides)."""
    if "[[[[[[[[" in text or "{{{{{{{{" in text:
        return UNKNOWN  # the plain bomb: the scan stops at its 65th bracket
    passes = 0
    while "[" in text or "{" in text:
        for bracket, pair in _PAIRS:  # a pass over one kind of pair counts, whatever it removed
            if bracket in text:
                if passes == PASSES:
                    return UNKNOWN
                text = pair.sub("", text)
                passes += 1
    # A block level needs one more column of indentation or indicator (`- `, `? `, `: `):
    # with no line led by `lead` such characters, the block depth is at most lead + 1.
    lead = MAX_DEPTH - passes - 1
    led = rf"[ \t?:-]{{{lead},}}"
    # `^` in MULTILINE mode, spelt as the text's start or a newline: the regular expression
    # engine then looks only at newlines (issue 20: ten times faster on a 62 MB tree)
    if re.match(led, text) or re.search(rf"\n{led}", text):
        return UNKNOWN
    return lead + passes


def _scan(path: Path, text: str, *, tags: bool) -> Problem | None:
    """The first event past a limit, with its position; None when every limit holds (a YAML
    syntax error ends the scan: the loader reports it)."""
    scan = _Scan()
    try:
        for event in YAML(typ="safe", pure=False).parse(text):
            found = scan.step(event, tags=tags)
            if found is not None:
                mark = event.start_mark
                hint = "remove the tag" if found.startswith("tag") else ALIAS_HINT
                if found.startswith("nesting"):
                    hint = "flatten the document: taugen's inputs nest only a few levels"
                return Problem(path, mark.line + 1, mark.column + 1, RULE, found, hint)
    except YAMLError:
        return None
    return None


@dataclass
class _Scan:
    """Counts as the events pass: depth, alias uses and the nodes they bring in."""

    depth: int = 0
    nodes: int = 0
    aliases: int = 0
    alias_nodes: int = 0

    def __post_init__(self) -> None:
        self.open: list[tuple[str | None, int]] = []  # anchor and node count at each collection start
        self.sizes: dict[str, int] = {}

    def step(self, event: Any, *, tags: bool) -> str | None:
        if isinstance(event, AliasEvent):
            return self._alias(event.anchor)
        if isinstance(event, NodeEvent):
            self.nodes += 1
            tag = getattr(event, "tag", None)
            if tags and tag is not None and tag not in TAGS:
                return f"tag {_shown(tag)} is not allowed: taugen reads plain data, never objects"
        if isinstance(event, CollectionStartEvent):
            self.depth += 1
            self.open.append((event.anchor, self.nodes))
            if self.depth > MAX_DEPTH:
                return f"nesting deeper than {MAX_DEPTH} levels"
        elif isinstance(event, CollectionEndEvent):
            self.depth -= 1
            anchor, start = self.open.pop()
            if anchor is not None:
                self.sizes[anchor] = self.nodes - start + 1
        return None

    def _alias(self, anchor: str) -> str | None:
        if any(anchor == name for name, _ in self.open):
            return f"alias *{anchor} refers to a collection that contains it"
        size = self.sizes.get(anchor)
        if size is None:  # a scalar's alias costs one node
            self.nodes += 1
            return None
        self.aliases += 1
        self.nodes += size
        self.alias_nodes += size
        return _alias_limits(self.aliases, self.alias_nodes)


def _alias_limits(aliases: int, alias_nodes: int) -> str | None:
    if aliases > MAX_ALIASES:
        return f"more than {MAX_ALIASES:,} aliases"
    if alias_nodes > MAX_ALIAS_NODES:
        return f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes (a 'billion laughs' document)"
    return None


def _shown(tag: str) -> str:
    return "!!" + tag.removeprefix(CORE) if tag.startswith(CORE) else tag


def _walk(data: Any) -> str | None:
    """Depth, alias uses and the nodes they bring in, over loaded data (an alias is an object
    seen twice); one pass, each list and map entered once, stopping at the first limit."""
    sizes: dict[int, int] = {}  # id -> nodes, for each finished collection
    entered: set[int] = set()
    aliases = alias_nodes = 0
    stack: list[tuple[Any, int, list[Any] | None]] = [(data, 1, None)] if _children(data) is not None else []
    while stack:
        node, depth, children = stack.pop()
        if children is not None:  # its children are finished
            sizes[id(node)] = _entries(node) + 1 + sum(sizes[id(c)] - 1 for c in children)
        elif id(node) in sizes:
            aliases, alias_nodes = aliases + 1, alias_nodes + sizes[id(node)]
            if found := _alias_limits(aliases, alias_nodes):
                return found
        elif id(node) in entered:
            return "an alias refers to a collection that contains it"
        elif depth > MAX_DEPTH:
            return f"nesting deeper than {MAX_DEPTH} levels"
        else:
            entered.add(id(node))
            inner = _children(node) or []
            stack.append((node, depth, inner))
            stack.extend((c, depth + 1, None) for c in inner)
    return None


def _children(node: Any) -> list[Any] | None:
    """The lists and maps directly inside a list or map; None for a scalar."""
    if isinstance(node, dict):
        return [c for c in node.values() if isinstance(c, (dict, list))]
    if isinstance(node, list):
        return [c for c in node if isinstance(c, (dict, list))]
    return None


def _entries(node: Any) -> int:
    return 2 * len(node) if isinstance(node, dict) else len(node)  # keys and values are nodes
