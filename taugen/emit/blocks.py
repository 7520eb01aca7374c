"""Write documents of nested string maps (partial Nodes) without PyYAML's representer.

A 100,000-node tree is almost all partial Nodes: maps of strings in maps. PyYAML's Python
representer was the largest part of a cold build (issue 6). Such a document is written here as
`key: value` lines, each scalar spelled as libyaml spells it — asked of libyaml once per
distinct string, or known plain when it is a lowercase word no YAML 1.1 or 1.2 reader takes for
anything but a string. Any other document (a list, a number, a multi-line or empty string, an
empty map) returns None and goes through PyYAML. `tests/property/test_blocks.py` holds the
output byte-equal to PyYAML's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9./_-]*")  # no indicator, space, colon or hash
_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})  # booleans, null in 1.1/1.2
_SIMPLE_KEY = 128  # libyaml writes a longer key as `? key`


def block(doc: dict[str, Any], spell: Callable[[str], str]) -> str | None:
    """The document as `dump_all` writes it (after its `---` line), or None when it cannot."""
    lines: list[str] = []
    return "".join(lines) if _map(doc, "", lines, spell) else None


def _map(node: dict[str, Any], indent: str, lines: list[str], spell: Callable[[str], str]) -> bool:
    if not node:
        return False
    for key, value in node.items():
        if type(key) is not str or not simple_key(key):
            return False  # other keys libyaml may write as `? key`: leave them to it
        if type(value) is dict:
            lines.append(f"{indent}{key}:\n")
            if not _map(value, indent + "  ", lines, spell):
                return False
        elif type(value) is str and value and "\n" not in value:
            text = spell(value)
            if "\n" in text:  # folded over lines: continuation indent depends on depth
                return False
            lines.append(f"{indent}{key}: {text}\n")
        else:
            return False
    return True


@lru_cache(maxsize=1 << 12)
def simple_key(key: str) -> bool:
    """A key written plain and inline: a 100,000-node tree repeats a dozen keys (issue 36)."""
    return _plain(key) and len(key) < _SIMPLE_KEY


def _plain(text: str) -> bool:
    return _PLAIN.fullmatch(text) is not None and text.lower() not in _WORDS


def speller(dump_one: Callable[[dict[str, str]], str]) -> Callable[[str], str]:
    """libyaml's spelling of a one-line string as a map value: the string itself when plain, else
    from dumping `{x: text}`; once per string (issue 36: the plain test was 3 million regex calls)."""

    @lru_cache(maxsize=1 << 12)  # repeated values stay; a node name is spelled once per build anyway
    def spell(text: str) -> str:
        if _plain(text):
            return text
        return dump_one({"x": text}).removeprefix("---\n").removeprefix("x: ").removesuffix("\n")

    return spell
