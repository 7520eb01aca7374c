r"""Schema patterns read by Python's `re` as the API server (Go RE2) and ECMA 262 read them.

jsonschema applies `pattern` with `re.search`, whose `$` also matches before a trailing newline:
`^[a-z]+$` let `taugrid\n` through, where RE2 and ECMA 262 end `$` at the end of the text
(issue 17 item 5). `python_pattern` writes each `$` anchor as `$(?!\n)`, which means the end of
the text in both engines; not `\Z`, which jsonschema-rs (the fast path, ECMA 262) refuses.
`with_re2_patterns` gives a python-jsonschema validator class that converts every pattern it
applies, so taugen's own schemas and kubernetes-validate's are read that way too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from jsonschema import ValidationError
from jsonschema.validators import extend

END = "$(?!\\n)"  # the end of the text, never the place before a last newline
_LATE_FLAGS = re.compile(r"^\^\(\?([aiLmsux]+)\)")
_CLASS_OPENING = re.compile(r"\[\^?\]?")  # a `]` right after `[` or `[^` is a literal
_MULTILINE = re.compile(r"\(\?[aiLsux]*m")  # (?m): `$` ends every line, in RE2 and Python alike


def whole(pattern: str) -> str:
    """A names.py pattern, matched against the whole string by `re.search` and by RE2."""
    return f"^(?:{pattern}){END}"


@lru_cache(maxsize=512)
def python_pattern(pattern: str) -> str:
    """A Go RE2 pattern as `re.search` must read it to match the same strings: global flags
    first (RE2 takes `^(?i)x`, Python wants `(?i)^x`), each `$` anchor as `$(?!\\n)`."""
    match = _LATE_FLAGS.match(pattern)
    pattern = f"(?{match[1]})^{pattern[match.end() :]}" if match else pattern
    return pattern if _MULTILINE.match(pattern) else _anchor_ends(pattern)


def _anchor_ends(pattern: str) -> str:
    """Every `$` not escaped and outside a character class, as END; idempotent."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        read = pattern[i : i + 2] if pattern[i] == "\\" else pattern[i]
        if in_class:
            in_class = read != "]"
        elif read == "[":
            read, in_class = _CLASS_OPENING.match(pattern, i)[0], True  # type: ignore[index]
        i += len(read)
        anchor = read == "$" and not pattern.startswith(END, i - 1) and not in_class
        out.append(END if anchor else read)
    return "".join(out)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's own `pattern` keyword (same message), on the converted pattern."""
    if validator.is_type(instance, "string") and not re.search(python_pattern(pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=16)
def with_re2_patterns(cls: Any) -> Any:
    """The validator class `cls`, reading every `pattern` as RE2 does."""
    return extend(cls, {"pattern": _pattern})  # type: ignore[no-untyped-call]
