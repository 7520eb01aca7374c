"""validate's Node checks skip label keys and values already found valid (issue 20: 100,000
partial Nodes repeat a few dozen of them); the findings must be those of checking every label
of every Node, as the API server does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from taugen.core import names
from taugen.load.document import Document
from taugen.validate.findings import Finding, finding
from taugen.validate.nodes import NAME_HINT, node_names
from taugen.validate.resources import Resource
from taugen.validate.semantic import Tree, map_of, meta_of

KEYS = st.sampled_from(
    ["tau.azure.com/gpu-class", "zone", "a/b/c", "-bad", "Bad Key/x", "x" * 64, "ok.io/" + "y" * 64, 7, True]
)
VALUES = st.sampled_from(["gb200", "true", "", "-bad", "x" * 64, "a b", 5, None, False, ["a"], {"k": "v"}])
NODE = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["node-1", "Node_2", "n\n", "", 3]),
        "labels": st.dictionaries(KEYS, VALUES, max_size=6),
    }
)


def _resources(nodes: list[dict[str, Any]]) -> list[Resource]:
    objects = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": n["name"], "labels": n["labels"]}}
        for n in nodes
    ]
    return [Resource(Document(Path("nodes.yaml"), obj, index=i)) for i, obj in enumerate(objects)]


def _every_label(tree: Tree) -> Iterator[Finding]:
    """node_names as it was: each label of each Node checked afresh."""
    for node in tree.of("Node", kueue=False):
        name = map_of(node.obj.get("metadata")).get("name")
        why = names.dns1123_subdomain_error(name) if isinstance(name, str) and name else None
        if why:
            yield finding(node, ["metadata", "name"], "node-name", f"the name {name!r} {why}", NAME_HINT)
        for key, value in meta_of(node, "labels").items():
            key_why = names.label_key_error(key) if isinstance(key, str) else "is not a string"
            value_why = names.label_value_error(value) if isinstance(value, str) else "is not a string"
            if key_why:
                message = f"label key {key!r} {key_why}"
                yield finding(node, ["metadata", "labels", key], "node-label", message, key=True)
            elif value_why:
                message = f"label {key} value {value!r} {value_why}"
                yield finding(node, ["metadata", "labels", key], "node-label", message)


@given(st.lists(NODE, max_size=12))
def test_node_findings_are_those_of_checking_every_label(nodes: list[dict[str, Any]]) -> None:
    tree = Tree(_resources(nodes))
    assert list(node_names(tree)) == list(_every_label(tree))


def test_a_label_valid_on_one_node_is_still_checked_with_another_value() -> None:
    good = {"name": "a", "labels": {"zone": "east", "tier": "gold"}}
    bad = {"name": "b", "labels": {"zone": "-east", "tier": "gold", "Bad Key": "gold"}}
    tree = Tree(_resources([good, bad, good]))
    found = [(f.problem.rule, f.problem.message) for f in node_names(tree)]
    assert found == [
        ("node-label", "label zone value '-east' " + str(names.label_value_error("-east"))),
        ("node-label", "label key 'Bad Key' " + str(names.label_key_error("Bad Key"))),
    ]
