"""compile/decorate.py decorates a partial Node in one step (issue 36, §4): the object it builds
is the general path's, decorated and then ordered by emit, key order included, so emit may take it
as it is (`Manifest.ordered`). Anything else steps aside to the general path."""

from __future__ import annotations

import copy
from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from taugen.compile.decorate import _general, _node, decorate
from taugen.compile.manifest import MANAGED_BY, SYNC_WAVE, Manifest
from taugen.compile.nodelabels.node import NODE_ANNOTATIONS
from taugen.compile.nodelabels.node import _node as compiled_node
from taugen.emit.canonical import emit_objects, ordered
from taugen.resolve.cluster import ResolvedNode
from taugen.schedulers.registry import scheduler_of
from tests.property.test_emit_nodes import EXAMPLES, _same, partial_nodes

FILE = "nodes/h200-141gb/nodes.yaml"


class Backend:
    """A scheduler's CRD groups, with a wave for any kind (a real backend's knows its own kinds
    only, and the drawn objects are of any): the core group among them too, oddly, when Nodes
    take its sync options and the one-step path must leave them to the general one."""

    def __init__(self, groups: tuple[str, ...]) -> None:
        self.crd_groups = groups

    def wave(self, manifest: Manifest) -> str:
        return "9"


GROUPS = [scheduler_of("kueue").crd_groups, scheduler_of("kai").crd_groups, ("v1",)]
BACKENDS = st.sampled_from([Backend(g) for g in GROUPS])


def _drop(obj: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    """Now and then without labels or annotations: a Node node.py did not build."""
    if draw(st.integers(0, 4)) == 0:
        meta = dict(obj["metadata"])
        meta.pop(draw(st.sampled_from(["labels", "annotations"])), None)
        return {**obj, "metadata": meta}
    return obj


@st.composite
def nodes(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly partial Nodes, with what every compiled object has: a name (of any type) and an
    apiVersion that is a string (decorate reads its group)."""
    obj = _drop(draw(partial_nodes()), draw)
    obj["metadata"] = {"name": "n", **obj["metadata"]}  # every compiled object has a name
    if type(obj["apiVersion"]) is not str:
        obj["apiVersion"] = draw(st.sampled_from(["apps/v1", "kueue.x-k8s.io/v1beta2", "v1"]))
    return obj


@EXAMPLES
@given(nodes(), BACKENDS)
def test_a_node_is_decorated_as_the_general_path_decorates_and_emit_orders_it(
    obj: dict[str, Any], backend: Any
) -> None:
    before = copy.deepcopy(obj)
    manifest = Manifest(FILE, obj)
    fast, general = _node(obj, backend), _general(manifest, backend)
    if fast is not None:
        assert _same(fast, ordered(general.obj))
        assert _same(ordered(fast), fast)  # what `ordered=True` promises emit
    (decorated,) = decorate([manifest], backend)
    assert decorated.ordered is (fast is not None)
    assert _same(emit_objects([decorated])[FILE][0], emit_objects([general])[FILE][0])
    assert _same(obj, before)  # pure (issue 18)


def test_a_node_as_node_py_builds_it_takes_the_one_step_path() -> None:
    """The shortcut is not a test that never runs: node.py's Node takes it, once per build set
    of annotations, each Node with maps of its own."""
    labels = {"a.example/x": "1", "tau.azure.com/gpu-class": "h200-141gb"}
    node = ResolvedNode("aks-h200-0", True, 8, "h200-141gb", labels, cast(Any, None))  # facts: unread
    first, second = decorate([compiled_node(node), compiled_node(node)], scheduler_of("kueue"))
    assert first.ordered and second.ordered
    assert first.obj == {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "aks-h200-0",
            "labels": {"a.example/x": "1", MANAGED_BY: "taugen", "tau.azure.com/gpu-class": "h200-141gb"},
            "annotations": {**NODE_ANNOTATIONS, SYNC_WAVE: "-2"},
        },
    }
    assert list(first.obj["metadata"]["annotations"]) == sorted({**NODE_ANNOTATIONS, SYNC_WAVE: ""})
    assert list(first.obj["metadata"]["labels"]) == ["a.example/x", MANAGED_BY, "tau.azure.com/gpu-class"]
    assert first.obj["metadata"]["annotations"] is not second.obj["metadata"]["annotations"]
    assert first == Manifest(first.file, first.obj)  # the flag says how it was built, not what it is
