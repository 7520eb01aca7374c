"""The fast loader (libyaml) must give the data ruamel's round-trip loader gives (issue 6):
positions come from ruamel, so a disagreement would point a problem at the wrong value."""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from taugen.core.errors import InputError, Problem
from taugen.emit.canonical import dump
from taugen.load import fast
from taugen.load.document import load_documents, parse_documents

# Plain scalars that look like numbers, booleans, nulls and dates under YAML 1.1 or 1.2.
SCALAR = st.one_of(
    st.text(alphabet="0123456789+-._xobeEinfaNIFtrueyso:~", min_size=1, max_size=8),
    st.sampled_from(
        [
            "yes",
            "No",
            "on",
            "OFF",
            "true",
            "False",
            "null",
            "~",
            "017",
            "0o17",
            "1:30",
            "2026-11-29",
            "2026-11-29T10:00:00Z",
            "2026-11-29 10:00:00.5 +02:00",
            "0x_1F",
        ]
    ),
)
KEY = st.text(alphabet="abcdefgh", min_size=1, max_size=3)


def _document(depth: int = 2) -> st.SearchStrategy[Any]:
    leaf = SCALAR
    if depth == 0:
        return leaf
    child = _document(depth - 1)
    return st.one_of(leaf, st.lists(child, max_size=3), st.dictionaries(KEY, child, max_size=3))


def _yaml(value: Any, indent: str = "") -> str:
    if isinstance(value, dict):
        return (
            "".join(f"{indent}{k}:\n{_yaml(v, indent + '  ')}" for k, v in value.items()) or f"{indent}{{}}\n"
        )
    if isinstance(value, list):
        return "".join(f"{indent}-\n{_yaml(v, indent + '  ')}" for v in value) or f"{indent}[]\n"
    return f"{indent}{value}\n"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b if not isinstance(a, dict | list) else False


def _ruamel(text: str) -> list[Any] | None:
    try:
        return [_plain(d) for d in YAML(typ="rt").load_all(text)]
    except (YAMLError, ValueError, IndexError):  # ruamel crashes on `-_`: see the test below
        return None


def _plain(value: Any) -> Any:
    """ruamel's round-trip types (CommentedMap, ScalarFloat, …) as the plain types they extend."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):  # ruamel's TimeStamp
        return datetime.combine(value.date(), value.timetz())
    for plain in (bool, int, float, str):
        if isinstance(value, plain):
            return plain(value)
    return value


@given(_document())
def test_fast_loader_agrees_with_ruamel_or_steps_aside(value: Any) -> None:
    text = _yaml(value)
    expected = _ruamel(text)
    try:
        got = fast.load_all(text)
    except fast.Unsupported:
        return  # the caller parses with ruamel instead: same data by construction
    assert expected is not None, f"libyaml accepted what ruamel refuses:\n{text}"
    assert _same(got, expected), f"{got!r} != {expected!r} for\n{text}"


def test_duplicate_keys_at_any_depth_step_aside() -> None:
    for text in ("a: 1\na: 2\n", "a:\n  b:\n    - {c: 1, c: 2}\n"):
        try:
            fast.load_all(text)
        except fast.Unsupported as err:
            assert str(err) == "duplicate key"
        else:
            raise AssertionError(f"duplicate key passed the fast loader: {text!r}")


def test_a_merge_key_override_is_not_a_duplicate() -> None:
    text = "x: &a {k: 1, j: 3}\ny:\n  <<: *a\n  k: 2\n"
    assert fast.load_all(text) == [{"x": {"k": 1, "j": 3}, "y": {"k": 2, "j": 3}}]
    assert _ruamel(text) == [{"x": {"k": 1, "j": 3}, "y": {"k": 2, "j": 3}}]


def test_yaml_1_1_spellings_are_strings_as_in_ruamel() -> None:
    assert fast.load_all("[yes, on, 017, 0o17, 1:30]") == [["yes", "on", 17, 15, "1:30"]]


def test_a_number_that_is_none_is_a_problem_at_its_position(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text("a:\n  b: [1, -_]\n")
    with pytest.raises(InputError) as caught:
        load_documents(file)
    hint = "quote it to make it a string"
    assert caught.value.problems == [
        Problem(file, 2, 10, "yaml", "'-_' looks like a number but is none", hint)
    ]


def test_a_syntax_error_after_a_number_python_cannot_convert_is_the_problem(tmp_path: Path) -> None:
    """The round-trip loader stops at 5,000 digits (Python's int limit), before the mapping on
    line 3 that cannot follow a scalar document: the problem is that syntax error, at its place
    (CI's fuzzing: an internal error before)."""
    file = tmp_path / "bad.yaml"
    file.write_text("9" * 5000 + "\n# a comment\napiVersion: v1\n")
    with pytest.raises(InputError) as caught:
        load_documents(file)
    message = "expected '<document start>', but found ('<block mapping start>',)"
    assert caught.value.problems == [Problem(file, 3, 1, "yaml", message, "fix the YAML syntax")]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [prefix, *(p for k, v in value.items() for p in _paths(v, (*prefix, k)))]
    if isinstance(value, list):
        return [prefix, *(p for i, v in enumerate(value) for p in _paths(v, (*prefix, i)))]
    return [prefix]


@given(_document(), st.booleans())
def test_positions_from_events_are_the_round_trip_loaders(value: Any, key: bool) -> None:
    """Issue 6: an error is reported at the same line and column whichever way it is found."""
    text = "---\n" + _yaml(value)
    try:
        data = fast.load_all(text)
    except fast.Unsupported:
        return
    [rt] = parse_documents(Path("x.yaml"), text) if data[0] is not None else [None]
    if rt is None:
        return
    for loc in [*_paths(data[0]), (*_paths(data[0])[-1], "missing", 0)]:
        if _get(data[0], loc) is None and not (key and loc in _paths(data[0])):
            continue  # an empty value: libyaml points after the colon, ruamel at the next line
        expected = rt.at(list(loc), key=key)
        assert fast.position(text, 0, list(loc), key) == (expected.line - 1, expected.col - 1), loc


def _get(value: Any, loc: tuple[Any, ...]) -> Any:
    """The value at loc, or at its deepest existing prefix."""
    for step in loc:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return value
    return value


@given(st.dictionaries(KEY, SCALAR, min_size=1, max_size=5))
def test_every_string_taugen_writes_reads_back_as_that_string(labels: dict[str, str]) -> None:
    """libyaml quotes by YAML 1.1 rules: "1e400" went out plain and came back a float (issue 7's
    fuzzer). What taugen writes, taugen and YAML 1.2 readers read back unchanged."""
    text = dump([{"metadata": {"labels": labels}}]).decode()
    assert fast.load_all(text) == [{"metadata": {"labels": labels}}]
    assert _ruamel(text) == [{"metadata": {"labels": labels}}]


@given(st.lists(SCALAR, min_size=1, max_size=12), st.integers(min_value=1, max_value=4))
@example(["2026-11-29", "017", "yes", "0o17"], 2)  # a date only to FastLoader; YAML 1.2 numbers
def test_remembered_tags_give_what_resolving_each_scalar_gives(texts: list[str], bound: int) -> None:
    # issue 20: the event loader remembers each plain scalar's tag per loader class (and
    # starts over past MAX_TAGS); PyYAML's composing loader, with the same class's resolvers
    # and constructors, resolves every scalar afresh
    from taugen.load import events
    from taugen.load.compiled import TreeLoader

    text = "".join(f"- {t}\n" for t in texts * 3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(events, "MAX_TAGS", bound)
        patch.setattr(events, "_TAGS", {})
        for cls in (fast.FastLoader, TreeLoader):
            try:
                expected = [_nan_free(d) for d in yaml.load_all(text, Loader=cls)]
            except Exception as err:  # the remembering loader refuses it too
                with pytest.raises(fast.Unsupported):
                    fast.load_all(text, cls)
                assert err
                continue
            assert [_nan_free(d) for d in fast.load_all(text, cls)] == expected
            assert all(len(t) <= bound for t in events._TAGS.values())


def _nan_free(value: Any) -> Any:
    if isinstance(value, list):
        return [_nan_free(v) for v in value]
    return "NaN" if isinstance(value, float) and math.isnan(value) else value


@given(_document(), st.booleans())
def test_an_indexed_document_answers_as_the_walk_does(value: Any, key: bool) -> None:
    """Issue 32: past a few lookups a document is indexed once (positions.Index); every answer,
    for paths that exist and paths that go further than the document, is the walk's."""
    text = "---\n" + _yaml(value)
    try:
        data = fast.load_all(text)
    except fast.Unsupported:
        return
    memo: dict[str, Any] = {"lookups": fast.INDEX_AFTER}  # the next lookup uses the index
    for loc in [*_paths(data[0]), (*_paths(data[0])[-1], "missing", 0), ("missing",), (5, 0)]:
        try:
            walked = fast.position(text, 0, list(loc), key)
        except fast.Unsupported:
            continue
        assert fast.position(text, 0, list(loc), key, memo) == walked, loc
        assert memo["index"] is not None


INDEXED = """\
first: document
---
base: &base {cpu: "1", memory: 1Gi}
nodes:
  - name: a
    <<: *base
    labels: {x: "1", "y": [1, 2, {z: 3}]}
  - {name: b, labels: {}}
  - name: c
    allocatable:
      nvidia.com/gpu: "8"
json: {"k": ["v", {"w": null}]}
"""


@pytest.mark.parametrize("key", [False, True])
def test_the_index_of_a_second_document_with_merge_keys_and_flow_style(key: bool) -> None:
    locs: list[list[str | int]] = [
        [], ["base"], ["base", "cpu"], ["nodes"], ["nodes", 0], ["nodes", 0, "name"], ["nodes", 0, "<<"],
        ["nodes", 0, "cpu"], ["nodes", 0, "labels", "y", 2, "z"], ["nodes", 1, "labels"],
        ["nodes", 1, "labels", "none"], ["nodes", 2, "allocatable", "nvidia.com/gpu"], ["nodes", 3],
        ["nodes", -1], ["json", "k", 1, "w"], ["json", "k", "x"], ["missing", 0],
    ]  # fmt: skip
    memo: dict[str, Any] = {"lookups": fast.INDEX_AFTER}
    for loc in locs:
        assert fast.position(INDEXED, 1, loc, key, memo) == fast.position(INDEXED, 1, loc, key), loc
