"""Issues 17 (item 5) and 30: a schema pattern matches what the API server's Go regexp matches.

The expected answers are Go's `regexp.MatchString` (go1.26, the API server's engine; checked once
by a throw-away Go program on these very cases): RE2's `$` ends the text, `\\z` and `\\p{L}` are
RE2 syntax Python's `re` reads otherwise, and a lookahead or backreference does not compile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from taugen.core.errors import InputError
from taugen.validate.crd import strict_schema
from taugen.validate.patterns import (
    FAST_KEYWORDS,
    PatternError,
    matches,
    refusal,
    uses_pattern_properties,
    whole,
    with_re2_patterns,
)
from taugen.validate.schemas import SchemaStore
from tests.support.crd import OBJECT_META, load_crds, validation_errors

GO_ANSWERS = [
    ("^[a-z]+$", "abc", True),
    ("^[a-z]+$", "abc\n", False),  # Python's `$` matches before a last newline; RE2's does not
    ("^[a-z]+$", "abc\r", False),
    ("^(?i)[a-z]+$", "AbC", True),  # a flag after `^`: Python 3.11 refuses it
    ("^(a|b$)", "b\n", False),
    ("^(a|b$)", "a\n", True),  # unanchored: `^a` is found
    ("^a\\$", "a$", True),  # an escaped dollar is a character
    ("^a\\$", "a", False),
    ("^a\\\\$", "a\\", True),  # an escaped backslash, then the anchor
    ("^a\\\\$", "a\\\n", False),
    ("^[$]x$", "$x", True),  # a dollar in a class is a character
    ("^[]$]$", "]", True),  # `]` first in a class is a character
    ("^[^]$]$", "$", False),
    ("(?m)^a$", "a\nb", True),  # multi-line: `$` ends a line
    ("^\\p{L}+$", "Éé", True),  # Python's `re` reads `\p` as `p`
    ("^\\p{L}+$", "a1", False),
    ("^\\pL+$", "ab", True),
    ("^\\p{Greek}$", "\u03b1", True),
    ("^a\\z", "a", True),  # `\z`: the end of the text (Python 3.11 refuses it)
    ("^a\\z", "a\n", False),
    ("^[[:alpha:]]+$", "ab", True),  # a POSIX class (ECMA 262 and Python read `[[:alpha:]]` otherwise)
    ("^\\Qa.b\\E$", "a.b", True),  # quoted text
    ("^\\Qa.b\\E$", "axb", False),
    ("^\\d$", "٣", False),  # `\d`, `\w`, `\s` are ASCII in RE2, Unicode in Python
    ("^\\w$", "é", False),
    ("^\\s$", "\v", False),
    ("^.$", "é", True),  # one code point
    ("^.$", "\n", False),
    ("(?s)^.$", "\n", True),
    ("(?i)^k$", "\u212a", True),  # the Kelvin sign folds to k
    ("a[0-9]", "xxa1yy", True),  # a search, not a whole match
]


@pytest.mark.parametrize(("pattern", "text", "found"), GO_ANSWERS)
def test_each_pattern_matches_as_go_regexp_does(pattern: str, text: str, found: bool) -> None:
    assert refusal(pattern) is None
    assert matches(pattern, text) is found


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("^(?=a)", "invalid perl operator: (?="),  # a lookahead
        ("(a)\\1", "invalid escape sequence: \\1"),  # a backreference
        ("^a++$", "bad repetition operator: ++"),  # a possessive quantifier
        ("^a\\Z", "invalid escape sequence: \\Z"),  # Python's end of text
        ("^\\C$", "invalid escape sequence: \\C"),  # RE2 in C++ takes it; Go's regexp does not
        ("a{1001}", "invalid repetition size: {1001}"),  # at most 1000, as in Go
    ],
)
def test_a_pattern_go_refuses_is_refused_with_re2s_reason(pattern: str, reason: str) -> None:
    assert refusal(pattern) == f"pattern {pattern!r} is not one the API server reads (Go RE2): {reason}"
    with pytest.raises(PatternError):
        matches(pattern, "a")


def test_quoted_and_escaped_backslash_c_are_characters() -> None:
    assert matches("^\\\\C$", "\\C")
    assert matches("^\\Q\\C\\E$", "\\C")


@pytest.mark.parametrize("cls", [Draft7Validator, Draft202012Validator])
def test_validators_read_every_pattern_as_re2_with_jsonschemas_message(cls: Any) -> None:
    validator = with_re2_patterns(cls)({"pattern": "^[a-z]+$"})
    assert [e.message for e in validator.iter_errors("abc\n")] == ["'abc\\n' does not match '^[a-z]+$'"]
    assert list(validator.iter_errors("abc")) == []
    assert list(cls({"pattern": "^[a-z]+$"}).iter_errors("abc\n")) == []  # what python-jsonschema did
    letters = with_re2_patterns(cls)({"properties": {"n": {"pattern": "^\\p{L}+\\z"}}})
    assert [e.message for e in letters.iter_errors({"n": "é1"})] == ["'é1' does not match '^\\\\p{L}+\\\\z'"]
    assert list(letters.iter_errors({"n": "é"})) == []


def test_a_refused_pattern_makes_a_clear_error_not_a_crash() -> None:
    validator = with_re2_patterns(Draft7Validator)({"pattern": "^(?=a)"})
    assert [e.message for e in validator.iter_errors("a")] == [
        "'a' cannot be checked: pattern '^(?=a)' is not one the API server reads (Go RE2): "
        "invalid perl operator: (?="
    ]
    assert list(validator.iter_errors(1)) == []  # not a string: no pattern applies


def test_pattern_properties_and_additional_properties_read_keys_as_re2() -> None:
    schema = {
        "type": "object",
        "properties": {"fixed": {}},
        "patternProperties": {"^\\p{Lu}+$": {"type": "integer"}, "^x-": {"type": "string"}},
        "additionalProperties": False,
    }
    validator = with_re2_patterns(Draft202012Validator)(schema)
    ok = {"fixed": 1, "ÉA": 1, "x-a": "b"}
    assert list(validator.iter_errors(ok)) == []
    bad = {"ÉA": "one", "AB\n": 1, "q": 1}  # `$` does not end `AB\n`: neither pattern covers it
    assert sorted(e.message for e in validator.iter_errors(bad)) == [
        "'AB\\n', 'q' do not match any of the regexes: '^\\\\p{Lu}+$', '^x-'",
        "'one' is not of type 'integer'",
    ]
    described = with_re2_patterns(Draft202012Validator)({**schema, "additionalProperties": {"type": "null"}})
    assert [e.message for e in described.iter_errors({"q": 1, "A": 1})] == ["1 is not of type 'null'"]
    plain = with_re2_patterns(Draft202012Validator)({"properties": {"a": {}}, "additionalProperties": False})
    assert [e.message for e in plain.iter_errors({"a": 1, "b": 2})] == [
        "Additional properties are not allowed ('b' was unexpected)"
    ]


def test_jsonschema_rs_reads_patterns_with_re2_too() -> None:
    for pattern, text, found in GO_ANSWERS:
        fast = jsonschema_rs.validator_for({"pattern": pattern}, keywords=FAST_KEYWORDS)
        assert fast.is_valid(text) is found, (pattern, text)
    nested = jsonschema_rs.validator_for(
        {"properties": {"k": {"propertyNames": {"pattern": "^[a-z]+$"}}}}, keywords=FAST_KEYWORDS
    )
    assert nested.is_valid({"k": {"abc": 1}})
    assert not nested.is_valid({"k": {"abc\n": 1}})
    with pytest.raises(ValueError, match="invalid perl operator"):  # its schema error: not taken
        jsonschema_rs.validator_for({"pattern": "(?=a)"}, keywords=FAST_KEYWORDS)


def test_pattern_properties_as_a_keyword_not_as_a_property_name() -> None:
    assert uses_pattern_properties({"items": [{"patternProperties": {"a": {}}}]})
    assert uses_pattern_properties({"$defs": {"x": {"properties": {"m": {"patternProperties": {}}}}}})
    assert not uses_pattern_properties({"properties": {"patternProperties": {"type": "object"}}})
    assert not uses_pattern_properties(
        {"default": {"patternProperties": {}}, "enum": [{"patternProperties": {}}]}
    )


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
    assert whole("a|b") == "^(?:a|b)$"


CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.test}}
spec:
  group: example.test
  scope: Cluster
  names: {{kind: Widget, plural: widgets}}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              title: {{type: string, pattern: '{pattern}'}}
"""


def widget(title: str) -> dict[str, Any]:
    return {
        "apiVersion": "example.test/v1",
        "kind": "Widget",
        "metadata": {"name": "w"},
        "spec": {"title": title},
    }


@pytest.mark.parametrize(("title", "valid"), [("Ünïcode", True), ("Ünïcode\n", False), ("a1", False)])
def test_a_crds_pattern_is_checked_by_both_validators_as_re2(tmp_path: Path, title: str, valid: bool) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text(CRD.format(pattern="^\\p{L}+$"))
    checker = SchemaStore(crds=(path,)).lookup("example.test/v1", "Widget")
    assert checker is not None and checker.fast is not None
    assert checker.fast.is_valid(widget(title)) is valid
    assert [e.message for e in checker.errors(widget(title))] == (
        [] if valid else [f"{title!r} does not match '^\\\\p{{L}}+$'"]
    )


def test_a_crd_with_a_pattern_go_refuses_is_an_input_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text(CRD.format(pattern="^(?!x)"))
    with pytest.raises(InputError) as caught:
        load_crds(path)
    [problem] = caught.value.problems
    assert (problem.path, problem.line, problem.col, problem.rule) == (path, 1, 1, "crd")
    assert problem.message == (
        "--crd: Widget v1: pattern '^(?!x)' is not one the API server reads (Go RE2): "
        "invalid perl operator: (?!"
    )
    with pytest.raises(PatternError):
        strict_schema({"type": "string", "pattern": "(a)\\1"})
