"""taugen/emit/nodes.py orders and writes partial Nodes exactly as the general path does (issue
36): the shortcut may take an object or leave it, never change a byte or a key's place."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.representer import RepresenterError

from taugen.emit.blocks import block
from taugen.emit.canonical import _SPELL, _dump_one, _ordered, dump, ordered
from taugen.emit.nodes import NodeWriter, ordered_node
from tests.property.test_blocks import KEY, TEXT

EXAMPLES = settings(max_examples=int(os.environ.get("BLOCKS_EXAMPLES", "300")))


class Key(str):
    """A key equal to a plain string but not one: blocks leaves it to PyYAML."""


FOLDED = ("ab " * 22000).strip()  # past the dumper's width: libyaml folds it over lines
ODD = st.one_of(st.integers(), st.booleans(), st.none(), st.just(""), st.just("two\nlines"), st.just(FOLDED))
GOOD = st.from_regex(r"[a-z][a-z0-9./_-]{0,12}", fullmatch=True)  # a label as taugen writes one


def mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`usual` nine times in ten (one_of would draw the odd cases as often, and a Node with one
    odd value of eight takes the general path: the shortcut would seldom be tried)."""
    return st.integers(0, 9).flatmap(lambda i: usual if i else other)


STRING = mostly(GOOD, TEXT)
VALUE = mostly(STRING, st.one_of(ODD, st.dictionaries(TEXT, TEXT, max_size=2), st.lists(TEXT, max_size=2)))
KNOWN = st.sampled_from(["kubernetes.io/hostname", "tau.azure.com/gpu-class"])
MAP_KEY = mostly(st.one_of(GOOD, KNOWN), st.one_of(KEY, st.builds(Key, TEXT)))
MAP = mostly(
    st.dictionaries(MAP_KEY, VALUE, min_size=1, max_size=5), st.dictionaries(MAP_KEY, VALUE, max_size=1)
)


@st.composite
def partial_nodes(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly a partial Node's shape, with now and then a field that is not."""
    meta: dict[str, Any] = {
        "name": draw(mostly(STRING, ODD)),
        "labels": draw(MAP),
        "annotations": draw(MAP),
    }
    if draw(st.integers(0, 9)) == 0:
        meta[draw(st.sampled_from(["namespace", "finalizers", "zz"]))] = draw(TEXT)
    if draw(st.integers(0, 9)) == 0:
        del meta[draw(st.sampled_from(sorted(meta)))]
    obj: dict[str, Any] = {"kind": draw(mostly(st.just("Node"), TEXT)), "metadata": meta}
    obj["apiVersion"] = draw(mostly(st.just("v1"), st.one_of(TEXT, ODD)))
    if draw(st.integers(0, 9)) == 0:
        obj["spec"] = {"taints": []}
    return {k: obj[k] for k in draw(st.permutations(sorted(obj)))}  # in any key order


def _same(a: Any, b: Any) -> bool:
    """Equal, with every map's keys in the same order (== on dicts ignores the order)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) is type(b)


@EXAMPLES
@given(partial_nodes())
def test_a_node_is_ordered_as_the_general_path_orders_it(obj: dict[str, Any]) -> None:
    fast = ordered_node(obj)
    if fast is not None:
        assert _same(fast, _ordered(obj))
    assert _same(ordered(obj), _ordered(obj))


@EXAMPLES
@given(partial_nodes())
def test_a_node_is_written_as_blocks_and_pyyaml_write_it(obj: dict[str, Any]) -> None:
    doc = _ordered(obj)
    text = NodeWriter(_SPELL)(doc)
    try:
        expected = _dump_one(doc)
    except RepresenterError:  # a str subclass: PyYAML's safe dumper refuses it, and so does dump
        assert text is None
        with pytest.raises(RepresenterError):
            dump([doc], header="")
        return
    if text is not None:
        assert text == f"---\n{block(doc, _SPELL)}"
        assert text == expected
    assert dump([doc], header="").decode() == expected


def test_a_built_node_takes_both_shortcuts() -> None:
    """The shortcut is not a test that never runs: a Node as taugen builds it takes it."""
    obj: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "aks-h200-0",
            "labels": {"tau.azure.com/gpu-class": "h200-141gb", "app.kubernetes.io/managed-by": "taugen"},
            "annotations": {
                "argocd.argoproj.io/sync-wave": "-2",
                "argocd.argoproj.io/sync-options": "Prune=false",
            },
        },
    }
    doc = ordered_node(obj)
    assert doc is not None and list(doc["metadata"]["labels"]) == sorted(obj["metadata"]["labels"])
    writer = NodeWriter(_SPELL)
    assert writer(doc) == writer(doc) == _dump_one(doc)
    assert writer(doc) == (
        "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: aks-h200-0\n  labels:\n"
        "    app.kubernetes.io/managed-by: taugen\n    tau.azure.com/gpu-class: h200-141gb\n"
        "  annotations:\n    argocd.argoproj.io/sync-options: Prune=false\n"
        "    argocd.argoproj.io/sync-wave: '-2'\n"
    )


def test_a_key_that_only_equals_a_string_is_not_taken_from_the_written_sets() -> None:
    """The annotations' text is remembered by their items; a str subclass key equal to a plain
    one must not be served the plain one's text (blocks leaves such a key to PyYAML)."""
    writer = NodeWriter(_SPELL)
    plain: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "n", "labels": {"a": "b"}, "annotations": {"k": "v"}},
    }
    odd = {**plain, "metadata": {**plain["metadata"], "annotations": {Key("k"): "v"}}}
    assert writer(plain) is not None
    assert writer(odd) is None
