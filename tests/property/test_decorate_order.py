"""decorate.py's one pass for partial Nodes (R29, §4, issue 36): a partial Node is decorated and
put in emit's order at once, and emit takes it as it is. The one pass may never change a tree's
bytes: its object is the one the general decoration gives, ordered as canonical.ordered orders
it, key order included."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from taugen.compile.decorate import decorate
from taugen.compile.manifest import MANAGED_BY, SYNC_OPTIONS, SYNC_WAVE, Manifest
from taugen.compile.nodelabels.node import NODE_ANNOTATIONS
from taugen.emit.canonical import emit_objects, ordered
from taugen.schedulers.kueue import Kueue

NAMED = [MANAGED_BY, SYNC_WAVE, SYNC_OPTIONS, "a", "z", "kubernetes.io/hostname", *NODE_ANNOTATIONS]
KEYS = st.one_of(
    st.sampled_from(NAMED),
    st.text(st.characters(codec="utf-8"), max_size=12),
)
STRINGS = st.dictionaries(KEYS, st.text(st.characters(codec="utf-8"), max_size=12), max_size=8)


@st.composite
def partial_nodes(draw: st.DrawFn) -> dict[str, Any]:
    """A partial Node of string maps, its metadata's keys in any order, some maps absent."""
    fields: dict[str, Any] = {"name": draw(st.text(min_size=1, max_size=12))}
    for key in ("labels", "annotations"):
        if draw(st.booleans()):
            fields[key] = draw(STRINGS)
    meta = dict(draw(st.permutations(sorted(fields.items()))))
    top = [("metadata", meta), ("kind", "Node"), ("apiVersion", "v1")]
    return dict(draw(st.permutations(top)))


def _text(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)  # key order kept: it compares the order too


@given(partial_nodes())
def test_one_pass_is_the_general_decoration_in_emits_order(node: dict[str, Any]) -> None:
    (fast,) = decorate([Manifest("nodes/x/nodes.yaml", node)], Kueue())
    # one more top-level field takes the general path; decorate leaves such a field as it is
    (general,) = decorate([Manifest("nodes/x/nodes.yaml", {**node, "status": {}})], Kueue())
    assert fast.canonical and not general.canonical
    assert fast.obj == {k: v for k, v in general.obj.items() if k != "status"}
    assert _text(fast.obj) == _text(ordered(fast.obj))
    assert fast.obj["metadata"]["labels"][MANAGED_BY] == "taugen"
    assert fast.obj["metadata"]["annotations"][SYNC_WAVE] == "-2"


@given(partial_nodes())
def test_emit_writes_the_one_pass_as_it_writes_the_general_path(node: dict[str, Any]) -> None:
    (fast,) = decorate([Manifest("nodes/x/nodes.yaml", node)], Kueue())
    plain = Manifest(fast.file, fast.obj)  # the same object, for emit to order
    assert _text(emit_objects([fast])["nodes/x/nodes.yaml"][0]) == _text(
        emit_objects([plain])["nodes/x/nodes.yaml"][0]
    )


def test_a_node_with_more_than_string_maps_takes_the_general_path() -> None:
    """A label that is not a string, a spec or a namespace: decorated and ordered as any object."""
    base = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"b": "1", "a": "2"}}}
    others = [
        {**base, "metadata": {"name": "n", "labels": {"a": 1}}},
        {**base, "spec": {"taints": []}},
        {**base, "metadata": {"name": "n", "namespace": "x"}},
    ]
    out = decorate([Manifest("f", o) for o in [base, *others]], Kueue())
    assert [m.canonical for m in out] == [True, False, False, False]
    assert list(out[0].obj["metadata"]["labels"]) == ["a", MANAGED_BY, "b"]
