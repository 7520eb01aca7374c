"""Issue 36: the native happy path (yaml-rs, load/native.py) reads what the event loader reads.

Either both parsers give equal data (types included: 8 is no 8.0, a datetime's offset counts) or
the happy path steps aside (None) and the event loader reads the file as before. Checked on every
YAML and JSON file the tests, the examples and the docs have, and on generated documents full of
YAML 1.2 edge cases, for both readers: the inputs' (timestamps are datetimes) and the trees'.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from taugen.load import fast, native
from taugen.load.compiled import TreeLoader

ROOT = Path(__file__).resolve().parents[2]
READERS = [(fast.FastLoader, True), (TreeLoader, False)]


def _old(text: str, loader: type[fast.FastLoader]) -> list[Any] | None:
    try:
        return [d for d in fast.load_all(text, loader) if d is not None]
    except fast.Unsupported:
        return None


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict):
        return (
            list(a) == list(b)
            and all(_same(k, j) for k, j in zip(a, b, strict=True))
            and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, datetime):
        return a == b and a.utcoffset() == b.utcoffset() and (a.tzinfo is None) == (b.tzinfo is None)
    return bool(a == b)


def _agree(text: str) -> int:
    """Asserts the happy path's answer for both readers; how many it took (not stepped aside)."""
    taken = 0
    for loader, timestamps in READERS:
        got = native.load_all(text, timestamps=timestamps)
        if got is None:
            continue
        expected = _old(text, loader)
        assert expected is not None, (
            f"yaml-rs read what the event loader refuses ({loader.__name__}):\n{text!r}"
        )
        assert _same(got, expected), f"{got!r} != {expected!r} ({loader.__name__}) for\n{text!r}"
        taken += 1
    return taken


def _corpus() -> list[Path]:
    found = [
        p
        for folder in ("tests", "examples", "profiles", "schemas")
        if (ROOT / folder).is_dir()
        for p in (ROOT / folder).rglob("*")
        if p.suffix in (".yaml", ".yml", ".json") and p.is_file() and ".venv" not in p.parts
    ]
    return sorted(p for p in found if p.stat().st_size < 2_000_000)


def _docs_blocks() -> list[str]:
    fence = re.compile(r"^```ya?ml\n(.*?)^```", re.M | re.S)
    return [m.group(1) for p in sorted((ROOT / "docs").rglob("*.md")) for m in fence.finditer(p.read_text())]


def test_every_yaml_file_the_project_has_reads_alike() -> None:
    files = _corpus()
    assert len(files) > 300  # the corpus is there: tests/, examples/ and the golden trees
    taken = 0
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError:
            continue  # the not-UTF-8 cases: read_text refuses them before any parser
        taken += _agree(text)
    assert taken > len(files)  # most files take the happy path, in both readers


def test_every_yaml_block_of_the_docs_reads_alike() -> None:
    blocks = _docs_blocks()
    assert blocks
    for text in blocks:
        _agree(text)


# Scalars that are numbers, booleans, nulls, timestamps or strings by one rule set or another.
PLAIN = st.one_of(
    st.text(alphabet="0123456789+-._xobeEinfaNIFtrueyso:~=", min_size=1, max_size=8),
    st.sampled_from(
        [
            "08", "yes", "No", "on", "~", "null", "Null", "NULL", "true", "False", "TRUE", "tRue", "0x1F",
            "0x_1F", "0o17", "017", "0b101", "1e3", "1E-3", "1e_3", "_1", "-_", "._", "+_", "0x_", "1_000",
            ".NaN", ".nan", ".inf", "-.Inf", "+.INF", "1.", ".5", "-0", "-0.0", "00", "1:30", "=",
            "123456789012345678901234567890", "2026-11-29", "2026-11-29T10:00:00Z", "2026-1-2",
            "2026-11-29 10:00:00.5 +02:00", "2026-11-29t10:00:00.123456789z", "2026-11-29T10:00:00+5",
            "Standard_ND96asr_v4", "a_b", "nvidia.com/gpu", "a b", "x#y", "-x", "?x", "!x", "&x", "*x",
            "\u00e9t\u00e9", "\u2028", "\x85", "\ufeff", "%x",
        ]
    ),
)  # fmt: skip
QUOTED = st.one_of(
    st.text(max_size=6).map(lambda s: "'" + s.replace("'", "''").replace("\n", " ") + "'"),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=6).map(
        lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    ),
    st.sampled_from(
        [
            '"08"', "'yes'", '"\\x41"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\N"', '"\\_"', '"\\/"', '"\\t"',
            '"\\0"', '"\\e"', '"\\U0001F600"', '"a\\\\b"', "'a\\b'", '"\\"q\\""', '""', "''",
        ]
    ),
)  # fmt: skip
SCALAR = st.one_of(PLAIN, QUOTED)
KEY = st.one_of(
    st.text(alphabet="abc", min_size=1, max_size=2), st.sampled_from(["1", "1.0", "true", "~", "'a'", '"b"'])
)
TAG = st.sampled_from(
    ["", "", "", "!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!binary ", "!x ", "! "]
)


def _node(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.tuples(TAG, SCALAR).map(lambda t: ("scalar", t[0] + t[1]))
    if depth == 0:
        return leaf
    child = _node(depth - 1)
    return st.one_of(
        leaf,
        st.lists(child, max_size=3).map(lambda items: ("seq", items)),
        st.lists(st.tuples(KEY, child), max_size=3).map(lambda pairs: ("map", pairs)),  # duplicates too
        st.lists(st.tuples(KEY, leaf), max_size=3).map(lambda pairs: ("flow", pairs)),
    )


def _render(node: Any, indent: str = "") -> str:
    kind, body = node
    if kind == "scalar":
        return f"{indent}{body}\n"
    if kind == "flow":
        return indent + "{" + ", ".join(f"{k}: {v[1]}" for k, v in body) + "}\n"
    if not body:
        return f"{indent}{'[]' if kind == 'seq' else '{}'}\n"
    if kind == "seq":
        return "".join(f"{indent}-\n{_render(v, indent + '  ')}" for v in body)
    return "".join(f"{indent}{k}:\n{_render(v, indent + '  ')}" for k, v in body)


EXTRAS = st.sampled_from(
    [
        "",
        "anchor: &a {x: 1}\nalias: *a\n",
        "base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
        "merged:\n  <<: {x: 1}\n",
        "? complex\n: key\n",
        "[1, 2]: flow key\n",
        "dup: 1\ndup: 2\n",
        "# a comment\n",
        "seq: [a, 'b', \"c\", 08, yes]\n",
        "block: |\n  08\n  yes\n",
        "folded: >-\n  a\n  b\n",
    ]
)


@st.composite
def _stream(draw: st.DrawFn) -> str:
    docs = [_render(draw(_node(3))) + draw(EXTRAS) for _ in range(draw(st.integers(1, 3)))]
    start = draw(st.sampled_from(["", "---\n", "# head\n---\n", "%YAML 1.2\n---\n"]))
    text = start + "---\n".join(docs)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text + draw(st.sampled_from(["", "---\n", "...\n", "--- \n"]))


@given(_stream())
@example("a: 08\nb: yes\nc: ~\nd: 0o17\ne: .inf\nf: 2026-11-29\n")
@example("- 1\n- 2\n")  # one document's list, not a stream of two
@example("---\n- 1\n---\n- 2\n")
@example("--- 1\n--- 2\n")
@example("a: 1\n---\n")
@example("_1: _1\nb: 1e_3\nc: -_\n")
@example('a: "\\ud83d\\ude00"\nb: "\\N"\n')
@example("a: \x85b\n")
def test_generated_documents_read_alike_or_step_aside(text: str) -> None:
    _agree(text)


@pytest.mark.parametrize(
    ("text", "data"),
    [
        (
            "a: 08\nb: yes\nc: ~\nd: 0o17\ne: 0x1F\nf: 1e3\ng: '08'\n",
            [{"a": 8, "b": "yes", "c": None, "d": 15, "e": 31, "f": 1000.0, "g": "08"}],
        ),
        ("- 1\n- 2\n", [[1, 2]]),
        ("---\n- 1\n- 2\n", [[1, 2]]),
        ("a: 1\n---\n---\nb: [2]\n", [{"a": 1}, {"b": [2]}]),
        ("", []),
        ("# only a comment\n", []),
    ],
)  # fmt: skip
def test_the_happy_path_reads_plain_data(text: str, data: list[Any]) -> None:
    assert native.load_all(text, timestamps=False) == data
    assert _old(text, TreeLoader) == data


def test_plain_timestamps_step_aside_for_inputs_and_are_strings_in_trees() -> None:
    text = "at: 2026-11-29T10:00:00Z\nday: [2026-11-29]\n"
    assert native.load_all(text, timestamps=True) is None  # the event loader makes them datetimes
    old = _old(text, fast.FastLoader)
    assert old is not None
    assert type(old[0]["day"][0]) is date
    strings = [{"at": "2026-11-29T10:00:00Z", "day": ["2026-11-29"]}]
    assert native.load_all(text, timestamps=False) == strings == _old(text, TreeLoader)
    quoted = 'at: "2026-11-29T10:00:00Z"\n'  # a string in both readers (yaml-rs's parse_datetime is off)
    assert (
        native.load_all(quoted, timestamps=True)
        == [{"at": "2026-11-29T10:00:00Z"}]
        == _old(quoted, fast.FastLoader)
    )


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # a duplicate key: the event loader's fallback reports it with its position
        "1: a\n01: b\n",  # duplicates as values, as Python's dict compares keys
        "1: a\n1.0: b\n",
        "1: a\ntrue: b\n",
        "~: a\nnull: b\n",
        "a: " + "1" * 4400 + "\n",  # an int longer than Python reads
        "a: [1\n",  # a syntax error
        "a: !!binary aGk=\n",
        "a: !custom x\n",
        "a: &x 1\nb: *x\n",
        "a:\n  <<: {b: 1}\n",
        "%YAML 1.1\n---\na: yes\n",
        "a: _1\n",
        "a: 1e_3\n",
        'a: "\\x41"\n',
        "a: b\x07\n",
        "? a\n: 1\n",
        "[1]: a\n",
        "a: 1\n...\n",
        "a: 1\r---\rb: 2\r",  # old Mac line ends: two documents
        "a: 0X1F\n",  # ruamel's table knows 0x, not 0X
        "a: 0O17\n",
        "a: .5e3\n",  # ruamel's `.5` floats need a signed exponent
        "a: 1e3_0\n",  # ruamel's exponents are digits only
        "a: |\n",  # a block scalar with no line: libyaml reads "", yaml-rs a newline
        "a: >\n\n",
        "a: |\n  ",
        "a: |-\n\n# c\n",
        "- |\n---\n- x\n",
        "t: |+\n\n  text",  # cut off by the stream's end: yaml-rs adds a newline
        "\tk: tab\n",  # a tab as indentation
        "a:\n \tb: 1\n",
        "- [:x, y]\n",  # YAML 1.2 plain scalars libyaml refuses
        "- [x:, y]\n",
        "- [|x, y]\n",
        "- [?x, y]\n",  # libyaml: an explicit key
        " : 1\n",
    ],
)
def test_what_the_parsers_read_differently_steps_aside(text: str) -> None:
    assert native.load_all(text, timestamps=True) is None
    assert native.load_all(text, timestamps=False) is None


def test_a_lone_equals_sign_steps_aside_for_inputs_only() -> None:
    # ruamel's `value` tag, which the inputs' loader knows and the trees' (core schema) does not
    assert native.load_all("a: =\n", timestamps=True) is None
    assert native.load_all("a: =\n", timestamps=False) == [{"a": "="}] == _old("a: =\n", TreeLoader)
