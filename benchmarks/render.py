"""Fast text output for large fleets: one template per node shape, filled per node with str.format.

A template is rendered once from an object whose per-node values are `Slot`s; each node then
costs one `format_map` of its pre-rendered scalars. This writes 100k kubectl-style nodes in
seconds, where a YAML dumper takes minutes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
# YAML 1.1 (PyYAML) resolves these plain words to booleans or null: quote them.
_WORDS = frozenset({"y", "yes", "n", "no", "on", "off", "true", "false", "null"})
_MARK = "\ue000"  # a private-use character: json.dumps keeps it as it is


@dataclass(frozen=True)
class Slot:
    """A per-node value in a template: rendered as `{name}`."""

    name: str


def yaml_scalar(value: object) -> str:
    """A scalar as YAML 1.1 and 1.2 both read back unchanged: plain when safe, else JSON-quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _WORDS:
        return text
    return json.dumps(text)  # a JSON string is a valid YAML double-quoted scalar


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def yaml_template(obj: Mapping[str, Any], indent: int) -> str:
    """Block YAML as `kubectl get -o yaml` writes it: sorted keys, list items at the key's indent."""
    lines: list[str] = []
    _yaml_mapping(obj, indent, lines)
    return "".join(line + "\n" for line in lines)


def _yaml_value(value: object) -> str:
    if isinstance(value, Slot):
        return "{" + value.name + "}"
    if value == {}:
        return "{{}}"
    if value == []:
        return "[]"
    return _literal(yaml_scalar(value))


def _yaml_mapping(obj: Mapping[str, Any], indent: int, lines: list[str]) -> None:
    pad = " " * indent
    for key in sorted(obj):
        value, name = obj[key], _literal(yaml_scalar(key))
        if isinstance(value, dict) and value:
            lines.append(f"{pad}{name}:")
            _yaml_mapping(value, indent + 2, lines)
        elif isinstance(value, list) and value:
            lines.append(f"{pad}{name}:")
            _yaml_items(value, indent, lines)
        else:
            lines.append(f"{pad}{name}: {_yaml_value(value)}")


def _yaml_items(items: list[Any], indent: int, lines: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict) and item:
            nested: list[str] = []
            _yaml_mapping(item, indent + 2, nested)
            lines.append(f"{pad}- {nested[0][indent + 2 :]}")
            lines += nested[1:]
        else:
            lines.append(f"{pad}- {_yaml_value(item)}")


def json_template(obj: Mapping[str, Any], indent: int) -> str:
    """JSON as `kubectl get -o json` writes it (4 spaces, sorted keys), shifted
    right by `indent` spaces and without a trailing newline."""
    text = _literal(json.dumps(_marked(obj), indent=4, sort_keys=True, ensure_ascii=False))
    text = re.sub(rf'"{_MARK}(\w+){_MARK}"', r"{\1}", text)
    return "\n".join(" " * indent + line for line in text.split("\n"))


def _marked(value: Any) -> Any:
    if isinstance(value, Slot):
        return f"{_MARK}{value.name}{_MARK}"
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_marked(v) for v in value]
    return value
