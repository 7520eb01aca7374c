"""Validate a document against a pydantic model; map every error onto a file position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from taugen.core.errors import InputError, Problem, Rule
from taugen.core.suggest import closest
from taugen.load.document import Document

M = TypeVar("M", bound=BaseModel)


Relocate = Callable[[list[str | int]], list[str | int]]


def validate(
    model: type[M], doc: Document, rule: Rule, data: Any = None, relocate: Relocate | None = None
) -> M:
    """The model, or an InputError listing every problem of the document.

    `data` replaces the document's data when only a part of it is validated; `relocate` then
    maps an error's path in `data` onto the path in the document.
    """
    try:
        return model.model_validate(doc.data if data is None else data)
    except ValidationError as err:
        problems = [_problem(model, doc, rule, e, relocate or list) for e in err.errors()]
        raise InputError(problems) from None


def _problem(model: type[BaseModel], doc: Document, rule: Rule, error: Any, relocate: Relocate) -> Problem:
    raw = list(error["loc"])
    bad_key = "[key]" in raw  # pydantic marks a dict key that failed validation
    loc = [step for step in raw if not _is_union_tag(step)]
    if error["type"] == "extra_forbidden":  # its last step is the key itself, even one with `[` in it
        loc = [step for step in raw[:-1] if not _is_union_tag(step)] + raw[-1:]
    where = ".".join(str(s) for s in loc) or "document"
    kind = error["type"]
    rule = error.get("ctx", {}).get("rule", rule)
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        close = closest(str(loc[-1]), allowed)
        hint = f"did you mean {close!r}?" if close else f"allowed keys: {', '.join(allowed)}"
        return doc.at(relocate(loc), key=True).problem(rule, f"{where}: unknown key", hint)
    pos = doc.at(relocate(loc), key=bad_key)
    if kind == "missing":
        return pos.problem(rule, f"{where}: required field is missing", f"add {loc[-1]!r}")
    message = error["msg"].removeprefix("Value error, ")
    return pos.problem(rule, f"{where}: {message}", _hint(kind, error))


def _is_union_tag(step: Any) -> bool:
    # pydantic inserts markers into locs: "[key]" for dict keys, member names for unions.
    return isinstance(step, str) and ("[" in step or step in {"str", "int", "list", "dict"})


_HINTS = {
    "string_type": 'write a string; quote values YAML reads otherwise, such as "true" or "08"',
    "bool_type": "write true or false",
    "int_type": "write a whole number",
    "list_type": "write a YAML list",
    "dict_type": "write a mapping of keys to values",
    "model_type": "write a mapping with the documented keys",
    "model_attributes_type": "write a mapping with the documented keys",
    "timezone_aware": 'write an RFC 3339 time with a zone, e.g. "2026-11-28T12:00:00Z"',
    "datetime_from_date_parsing": 'write an RFC 3339 time, e.g. "2026-11-28T12:00:00Z"',
    "datetime_parsing": 'write an RFC 3339 time, e.g. "2026-11-28T12:00:00Z"',
    "datetime_type": 'write an RFC 3339 time, e.g. "2026-11-28T12:00:00Z"',
    "too_short": "add at least one item",
    "string_too_long": "Kueue limits this name's length (LocalQueue names: 63 characters)",
}


def _hint(kind: str, error: Any) -> str:
    ctx = error.get("ctx", {})
    if "hint" in ctx:
        return str(ctx["hint"])
    if kind in ("literal_error", "enum"):
        return f"use one of {ctx.get('expected', 'the listed values')}"
    return _HINTS.get(kind, "see the JSON Schemas in schemas/ for the accepted form")


def _allowed_keys(model: type[BaseModel], loc: list[Any]) -> list[str]:
    """The property names the model's JSON Schema allows at `loc` (for did-you-mean hints)."""
    schema = model.model_json_schema()
    node: dict[str, Any] = schema
    for step in loc:
        node = _deref(schema, node)
        if isinstance(step, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(step) or node.get("additionalProperties") or {}
    node = _deref(schema, node)
    return sorted(node.get("properties", {}))


def _deref(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while True:
        if "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        elif "anyOf" in node:
            node = next((n for n in node["anyOf"] if n.get("type") != "null"), {})
        elif "if" in node:  # a cluster entry per scheduler (models/project.py): every variant's keys
            variants = [_deref(root, node["then"]), _deref(root, node["else"])]
            node = {"properties": {k: v for n in variants for k, v in n.get("properties", {}).items()}}
        else:
            return node
