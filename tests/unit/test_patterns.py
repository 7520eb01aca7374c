"""Issue 17 item 5: a schema pattern matches what the API server's RE2 matches, trailing newline aside.

jsonschema applies `pattern` with `re.search`; Python's `$` also matches before a last newline.
"""

from __future__ import annotations

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from taugen.validate.patterns import python_pattern, with_re2_patterns
from tests.support.crd import OBJECT_META, validation_errors


@pytest.mark.parametrize(
    ("go", "python"),
    [
        ("^[a-z]+$", "^[a-z]+$(?!\\n)"),
        ("^(?i)[a-z]+$", "(?i)^[a-z]+$(?!\\n)"),
        ("^(a|b$)", "^(a|b$(?!\\n))"),
        ("^(a$|b$)$", "^(a$(?!\\n)|b$(?!\\n))$(?!\\n)"),
        ("^a\\$", "^a\\$"),  # an escaped dollar is a character
        ("^a\\\\$", "^a\\\\$(?!\\n)"),  # an escaped backslash, then the anchor
        ("^[$]x$", "^[$]x$(?!\\n)"),  # a dollar in a class is a character
        ("^[]$]$", "^[]$]$(?!\\n)"),  # `]` first in a class is a character
        ("^[^]$]$", "^[^]$]$(?!\\n)"),
        ("^a$(?!\\n)", "^a$(?!\\n)"),  # converted once only
        ("(?m)^a$", "(?m)^a$"),  # multi-line: `$` ends a line in both engines
        ("^[a-z]", "^[a-z]"),
    ],
)
def test_each_dollar_anchor_ends_the_text(go: str, python: str) -> None:
    assert python_pattern(go) == python


def test_a_trailing_newline_no_longer_matches() -> None:
    schema = {"pattern": python_pattern("^[a-z]+$")}
    assert validation_errors(schema, "abc") == []
    assert validation_errors(schema, "abc\n") == ["<root>: 'abc\\n' does not match '^[a-z]+$(?!\\\\n)'"]


@pytest.mark.parametrize("cls", [Draft7Validator, Draft202012Validator])
def test_validators_read_every_pattern_as_re2_with_jsonschemas_message(cls: type) -> None:
    validator = with_re2_patterns(cls)({"pattern": "^[a-z]+$"})
    assert [e.message for e in validator.iter_errors("abc\n")] == ["'abc\\n' does not match '^[a-z]+$'"]
    assert list(validator.iter_errors("abc")) == []
    assert list(cls({"pattern": "^[a-z]+$"}).iter_errors("abc\n")) == []  # what python-jsonschema did


def test_object_meta_takes_the_names_module_patterns() -> None:
    meta = {"name": "a\n", "namespace": "ns\n", "labels": {"k\n": "v", "k": "v\n", "/x": "v"}}
    assert [e.split(" does not match ")[0] for e in validation_errors(OBJECT_META, meta)] == [
        "labels.k: 'v\\n'",
        "labels: '/x'",
        "labels: 'k\\n'",
        "name: 'a\\n'",
        "namespace: 'ns\\n'",
    ]
    assert validation_errors(OBJECT_META, {"name": "a.b", "namespace": "ns", "labels": {"x.io/k": "v"}}) == []
