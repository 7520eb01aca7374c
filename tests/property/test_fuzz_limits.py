"""The input limits (issue 7) hold for any document, in any YAML style.

- The cheap depth bound on the text, when it clears a file (at most 64), is never below the
  real depth: an under-estimate would let a deep file reach the parser unscanned.
- A document loads exactly when it is within the limits, and the walk over loaded data (the
  fast path) and the event scan (the round-trip path) refuse the same documents.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from taugen.core.errors import InputError
from taugen.load import limits
from taugen.load.document import load_documents, parse_documents

LONG = (
    settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "10000")))
    if os.environ.get("HYPOTHESIS_PROFILE") == "long"
    else settings(max_examples=100)  # small files, no build: 100 examples take seconds
)
# Strings that look like structure: brackets, quotes, comments, indicators.
TRICKY = st.text(alphabet="[]{}\"'#:,- ab\\\n\t", max_size=12)
SCALARS = st.none() | st.booleans() | st.integers() | TRICKY | st.sampled_from(["a", "8", "1800Gi"])
KEYS = st.text(alphabet="ab[]{}#:'\" -", min_size=1, max_size=6)


def depth(node: Any) -> int:
    if isinstance(node, dict):
        return 1 + max((depth(v) for v in node.values()), default=0)
    if isinstance(node, list):
        return 1 + max((depth(v) for v in node), default=0)
    return 0


@st.composite
def documents(draw: st.DrawFn) -> Any:
    """A random tree, then wrapped in up to 80 more lists and maps (the limit is 64)."""
    tree = draw(
        st.recursive(
            SCALARS,
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
            max_leaves=8,
        )
    )
    for _ in range(draw(st.integers(0, 80))):
        tree = [tree] if draw(st.booleans()) else {draw(KEYS): tree}
    return tree if isinstance(tree, (dict, list)) else [tree]


@st.composite
def texts(draw: st.DrawFn, data: Any) -> str:
    """The document as YAML in block, flow or mixed style, or as JSON."""
    style = draw(st.sampled_from(["block", "flow", "mixed", "json", "json-indented"]))
    if style.startswith("json"):
        return json.dumps(data, indent=draw(st.integers(0, 4)) if style == "json-indented" else None)
    flow = {"block": False, "flow": True, "mixed": None}[style]
    return yaml.safe_dump(data, default_flow_style=flow, width=draw(st.sampled_from([20, 80, 10_000])))


@LONG
@given(data=st.data(), document=documents())
def test_the_depth_bound_is_never_below_the_real_depth(data: st.DataObject, document: Any) -> None:
    bound = limits._depth_bound(text := data.draw(texts(document)))
    assert bound > limits.MAX_DEPTH or depth(document) <= bound, text  # more: the event scan decides


@LONG
@given(data=st.data(), document=documents())
def test_a_document_loads_exactly_when_it_is_within_the_depth_limit(
    data: st.DataObject, document: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("limits") / "doc.yaml"
    path.write_text(text := data.draw(texts(document)))
    if depth(document) <= limits.MAX_DEPTH:
        # What the text says, as ruamel reads it: PyYAML's dumper, folding a quoted string with
        # escapes at width 20, can write text that means another string (every loader agrees).
        assert [d.data for d in load_documents(path)] == [YAML(typ="safe", pure=True).load(text)]
    else:
        with pytest.raises(InputError) as info:
            load_documents(path)
        assert [p.message for p in info.value.problems] == ["nesting deeper than 64 levels"]


@st.composite
def shared(draw: st.DrawFn) -> Any:
    """Lists that hold one object several times: the dumper writes anchors and aliases."""
    node: Any = draw(st.lists(SCALARS, min_size=1, max_size=3))
    for _ in range(draw(st.integers(1, 8))):
        node = [node] * draw(st.integers(1, 12))
    return {"root": node}


def _refusal(call: Any) -> str | None:
    try:
        call()
    except InputError as err:
        return err.problems[0].message.split(" (")[0]
    return None


@LONG
@given(document=shared())
def test_the_data_walk_and_the_event_scan_agree_on_aliases(
    document: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = yaml.safe_dump(document)
    path = tmp_path_factory.mktemp("aliases") / "doc.yaml"
    path.write_text(text)
    fast = _refusal(lambda: load_documents(path))
    assert fast == _refusal(lambda: parse_documents(Path("doc.yaml"), text))
    if fast is None:
        assert load_documents(path)[0].data == document


@given(st.text(alphabet=" \t?:-\n\rab", max_size=60), st.integers(1, 6))
def test_the_block_depth_bound_finds_a_led_line_as_multiline_caret_does(text: str, lead: int) -> None:
    # issue 20: _depth_bound spells `^` (MULTILINE) as the text's start or a newline
    led = rf"[ \t?:-]{{{lead},}}"
    spelt = bool(re.match(led, text) or re.search(rf"\n{led}", text))
    assert spelt == bool(re.search(rf"^{led}", text, re.MULTILINE))
    past = " " * (limits.MAX_DEPTH - 1) + "x"  # a line led by more than the bound allows
    for where in (f"{past}\n{text}", f"{text}\n{past}\n"):  # the first line, or any other
        assert limits._depth_bound(where) == limits.UNKNOWN
