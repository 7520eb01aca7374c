r"""Schema patterns matched as the API server matches them: Go's regexp (RE2), an unanchored search.

A CRD's `pattern` is Go RE2 syntax, and the API server checks a value with `MatchString`. Python's
`re` reads it otherwise: its `$` also matches before a last newline (`^[a-z]+$` lets `abc\n`
through), it refuses `^(?i)…` and `\z`, and it reads `\p{L}` as `p{L}` (issue 17 item 5,
issue 30). So every pattern here is compiled by RE2 itself (google-re2, the engine Go's regexp
follows), once per pattern:

- `with_re2_patterns(cls)`: a python-jsonschema validator class whose `pattern`,
  `patternProperties` and `additionalProperties` (which skips the keys a `patternProperties`
  pattern matches) read their patterns with RE2;
- `FAST_KEYWORDS`: the same `pattern` keyword for jsonschema-rs (`keywords=`); a schema that
  `uses_pattern_properties` gets no jsonschema-rs validator, whose own engine would decide which
  keys a `patternProperties` pattern covers;
- `refusal(pattern)`: why RE2 (and so the API server) refuses a pattern, or None.

A pattern RE2 refuses (a lookahead, a backreference) makes every value it checks invalid, with a
message that names the pattern and RE2's reason: the API server would refuse such a schema.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

import re2
from jsonschema import ValidationError
from jsonschema.validators import extend

from taugen.core.errors import TaugenError


class PatternError(TaugenError):
    """A pattern RE2 does not compile: the API server refuses a schema that holds it."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 would print each refusal to stderr; PatternError says it
    options.never_capture = True  # a yes/no search: no groups to record (twice as fast)
    return options


_OPTIONS = _options()
# `\C` (any byte) is the one escape RE2 takes and Go's regexp refuses; `\Q…\E` quotes text
_ESCAPES = re.compile(r"\\Q.*?(?:\\E|$)|\\(.)", re.DOTALL)


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> Any:
    try:
        if any(m[1] == "C" for m in _ESCAPES.finditer(pattern)):
            raise re2.error(b"invalid escape sequence: \\C")
        return re2.compile(pattern, _OPTIONS)
    except re2.error as err:
        said = err.args[0] if err.args else "not RE2 syntax"
        reason = said.decode(errors="replace") if isinstance(said, bytes) else str(said)
        raise PatternError(
            f"pattern {pattern!r} is not one the API server reads (Go RE2): {reason}"
        ) from None


def refusal(pattern: str) -> str | None:
    """Why RE2 refuses `pattern`, or None when it compiles."""
    try:
        _compiled(pattern)
    except PatternError as err:
        return str(err)
    return None


def matches(pattern: str, text: str) -> bool:
    """`pattern` found anywhere in `text`, as Go's `regexp.MatchString` finds it."""
    return _compiled(pattern).search(text) is not None


def whole(pattern: str) -> str:
    """A names.py pattern, matched against the whole string (RE2's `$` is the end of the text)."""
    return f"^(?:{pattern})$"


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's own `pattern` keyword (same message), read by RE2."""
    if validator.is_type(instance, "string"):
        try:
            found = matches(pattern, instance)
        except PatternError as err:
            yield ValidationError(f"{instance!r} cannot be checked: {err}")
            return
        if not found:
            yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _covered(key: str, patterns: Mapping[str, Any]) -> Iterator[bool]:
    """For each pattern of `patterns`, whether it matches `key`; a refused one matches none."""
    return (refusal(p) is None and matches(p, key) for p in patterns)


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """jsonschema's own `patternProperties`, its patterns read by RE2."""
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        if (why := refusal(pattern)) is not None:
            yield ValidationError(f"patternProperties cannot be checked: {why}")
            continue
        for key, value in instance.items():
            if matches(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(original: Any) -> Any:
    """jsonschema's own `additionalProperties` (`original`, same messages), where a key is
    covered by `patternProperties` when RE2 finds one of its patterns in it."""

    def keyword(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if "patternProperties" not in schema:
            yield from original(validator, extra, instance, schema)
            return
        if not validator.is_type(instance, "object"):
            return
        patterns, named = schema["patternProperties"], schema.get("properties", {})
        extras = sorted(k for k in instance if k not in named and not any(_covered(k, patterns)))
        if validator.is_type(extra, "object"):
            for key in extras:
                yield from validator.descend(instance[key], extra, path=key)
        elif not extra and extras:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(k) for k in extras)
            regexes = ", ".join(repr(p) for p in sorted(patterns))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {regexes}")

    return keyword


@lru_cache(maxsize=16)
def with_re2_patterns(cls: Any) -> Any:
    """The validator class `cls`, reading every pattern as RE2 does."""
    keywords = {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties(cls.VALIDATORS["additionalProperties"]),
    }
    return extend(cls, keywords)  # type: ignore[no-untyped-call]


class _FastPattern:
    """jsonschema-rs's `pattern` keyword, read by RE2 (jsonschema-rs's `keywords=` protocol)."""

    def __init__(self, parent_schema: Mapping[str, Any], value: str, schema_path: list[str | int]) -> None:
        self.regexp = _compiled(value)  # PatternError: jsonschema-rs refuses the schema
        self.pattern = value

    def validate(self, instance: Any) -> None:
        if isinstance(instance, str) and self.regexp.search(instance) is None:
            raise ValueError(f"{instance!r} does not match {self.pattern!r}")


FAST_KEYWORDS: dict[str, Any] = {"pattern": _FastPattern}

_NAMES = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_VALUES = frozenset({"enum", "const", "default", "examples"})


def uses_pattern_properties(schema: Any) -> bool:
    """`patternProperties` is a keyword somewhere in `schema` (not merely a property's name)."""
    if isinstance(schema, list):
        return any(uses_pattern_properties(s) for s in schema)
    if not isinstance(schema, Mapping):
        return False
    if isinstance(schema.get("patternProperties"), Mapping):
        return True
    return any(
        any(uses_pattern_properties(s) for s in sub.values())
        if key in _NAMES and isinstance(sub, Mapping)
        else uses_pattern_properties(sub)
        for key, sub in schema.items()
        if key not in _VALUES
    )
