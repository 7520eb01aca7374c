"""Objects drawn from a CRD's structural schema, and mutations that break one constraint of it.

hypothesis-jsonschema would do the first half, but its last release (0.23.1, 2024) fails on
the hypothesis this project runs (`'many' object has no attribute 'more'`); a structural
schema has few keywords (Kubernetes forbids the rest), so the strategy is written here for
exactly those: type, properties/required, additionalProperties, items, enum, the length, size
and range bounds, pattern, the date-time format, and the anyOf of int-or-string.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from hypothesis import strategies as st

from taugen.validate.patterns import matches

Schema = dict[str, Any]
MAX_DEPTH = 6
_TEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-./", min_size=0, max_size=12)
_LATE_FLAGS = re.compile(r"^\^\(\?([imsU]+)\)")


def drawable(pattern: str) -> re.Pattern[str]:
    """An RE2 pattern as hypothesis's `from_regex` (Python's `re`) can draw from: RE2 takes
    `^(?i)x`, Python wants `(?i)^x`. What it draws is kept only if RE2 matches it."""
    return re.compile(_LATE_FLAGS.sub(lambda m: f"(?{m[1]})^", pattern))


def values(schema: Schema, depth: int = 0) -> st.SearchStrategy[Any]:
    """A strategy for values that `schema` accepts (mostly: a pattern with a length bound is
    drawn and filtered, and the comparison never assumes the draw is valid)."""
    if "enum" in schema:
        return st.sampled_from([v for v in schema["enum"] if v is not None] or [None])
    if "const" in schema:
        return st.just(schema["const"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([values(sub, depth) for sub in schema[key]])
    kind = schema.get("type")
    kind = next((t for t in kind if t != "null"), None) if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        return _objects(schema, depth)
    if kind == "array":
        return _arrays(schema, depth)
    if kind == "string":
        return _strings(schema)
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**31)), schema.get("maximum", 2**31 - 1))
    if kind == "number":
        return st.integers(int(schema.get("minimum", -1000)), int(schema.get("maximum", 1000)))
    if kind == "boolean":
        return st.booleans()
    return st.one_of(st.integers(0, 9), _TEXT)  # no type: anything


def _objects(schema: Schema, depth: int) -> st.SearchStrategy[Any]:
    properties: dict[str, Schema] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    if depth >= MAX_DEPTH:
        properties = {k: v for k, v in properties.items() if k in required}
    extra = schema.get("additionalProperties")
    if not properties and isinstance(extra, dict):
        keys = _strings(schema.get("propertyNames") or {"minLength": 1, "maxLength": 12})
        lo, hi = schema.get("minProperties", 0), min(schema.get("maxProperties", 3), 3)
        return st.dictionaries(keys, values(extra, depth + 1), min_size=lo, max_size=max(lo, hi))
    return st.fixed_dictionaries(
        {k: values(v, depth + 1) for k, v in properties.items() if k in required},
        optional={k: values(v, depth + 1) for k, v in properties.items() if k not in required},
    )


def _arrays(schema: Schema, depth: int) -> st.SearchStrategy[Any]:
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    lo = schema.get("minItems", 0)
    hi = max(lo, min(schema.get("maxItems", 3), 3 if depth < MAX_DEPTH else lo))
    return st.lists(values(items or {}, depth + 1), min_size=lo, max_size=hi)


def _strings(schema: Schema) -> st.SearchStrategy[Any]:
    if schema.get("format") == "date-time":
        return st.datetimes(datetime(1970, 1, 1), datetime(2100, 1, 1)).map(
            lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
        )
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    if "pattern" in schema:
        pattern = schema["pattern"]
        drawn: st.SearchStrategy[str] = st.from_regex(drawable(pattern))
        return drawn.filter(
            lambda s: lo <= len(s) <= (hi if hi is not None else len(s)) and matches(pattern, s)
        )
    return st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=lo, max_size=min(hi or 20, 20))


# --- one broken constraint -------------------------------------------------------------------


def mutations(
    schema: Schema, value: Any, path: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], Any]]:
    """(path, replacement) pairs, each breaking one constraint of `schema` at one place of `value`."""
    found: list[tuple[tuple[str | int, ...], Any]] = []
    found.extend((path, bad) for bad in _breaking(schema, value))
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        for key, item in value.items():
            extra = schema.get("additionalProperties")
            sub = properties.get(key) or (extra if isinstance(extra, dict) else None)
            if sub is not None:
                found.extend(mutations(sub, item, (*path, key)))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            found.extend(mutations(schema["items"], item, (*path, index)))
    return found


def _breaking(schema: Schema, value: Any) -> list[Any]:
    """Values for this place that break one of its keywords: a wrong type, an unknown field, a
    missing required field, one past a bound, a value out of the enum or off the pattern."""
    out: list[Any] = [{"wrong": "type"}] if not isinstance(value, dict) else ["not-an-object"]
    if isinstance(value, dict):
        if schema.get("properties") and schema.get("additionalProperties") is False:
            out.append({**value, "unknownFieldX": "x"})
        out.extend({k: v for k, v in value.items() if k != key} for key in schema.get("required") or [])
    if "enum" in schema:
        out.append("NotInTheEnum")
    if isinstance(value, str):
        if schema.get("format") == "date-time":
            out.append("yesterday")
        if "maxLength" in schema:
            out.append("a" * (schema["maxLength"] + 1))
        if "pattern" in schema:
            out.append(value + " !")
        if schema.get("minLength", 0) > 0:
            out.append("")
    if isinstance(value, int) and not isinstance(value, bool):
        out.extend([2**31] if schema.get("format") == "int32" else [])
        out.extend(b for k, b in (("minimum", -1), ("maximum", 1)) if k in schema for b in [schema[k] + b])
    if isinstance(value, list):
        if "maxItems" in schema and value:
            out.append(value + [value[0]] * (schema["maxItems"] + 1 - len(value)))
        if schema.get("minItems", 0) > 0:
            out.append([])
    return out


def replaced(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    """`value` with the item at `path` replaced by `new` (copies along the path only)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(value[head], rest, new)  # type: ignore[index]
    return copy
