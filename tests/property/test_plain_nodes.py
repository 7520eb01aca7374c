"""A native inventory's nodes are read without the model when nothing in them can be wrong
(load/plain_nodes.py, issue 36). For any nodes, right or wrong: what plain_nodes reads is what the
model reads, value for value, and loading the inventory gives the same nodes or the same
problems, positions included, with the fast reading as without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import event, given
from hypothesis import strategies as st

import taugen.load.inventory
from taugen.core.errors import InputError, Problem
from taugen.load.inventory import NodeFacts, load_inventory
from taugen.load.plain_nodes import PlainNode, plain_nodes
from taugen.models.inventory import InventoryNode

GPU = "nvidia.com/gpu"
# ordinary values, each beside values of the wrong type or an unusual spelling of the right one;
# the ordinary ones drawn fifteen times as often, so that whole lists of plain nodes come often
ODD = st.sampled_from([None, 8, 1.5, True, ["a"], {"a": "b"}])


def _mostly(ordinary: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.integers(0, 15).flatmap(lambda i: odd if i == 0 else ordinary)


STRINGS = _mostly(st.sampled_from(["eastus", "Standard_ND96isr_H100_v5", ""]), st.one_of(st.just("a b"), ODD))
QUANTITIES = _mostly(
    st.sampled_from(["8", "0", "1800Gi", "500m", "-1", "1.5"]),
    st.sampled_from(["8x", "", 8, 0, True, 1.5, None, ["8"]]),
)
NAMES = _mostly(
    st.sampled_from(["gpu-0", "gpu-1", "gpu-2"]), st.sampled_from(["Upper", "a_b", "-a", "a" * 254, "", 7])
)
KEYS = _mostly(st.sampled_from(["cpu", GPU, "memory"]), st.sampled_from([3, True]))


@st.composite
def nodes(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 30)) == 0:
        return draw(ODD)  # not a mapping at all
    node: dict[str, Any] = {"name": draw(NAMES)}
    for key, values in (("vmSize", STRINGS), ("site", STRINGS), ("ready", _mostly(st.booleans(), ODD))):
        if draw(st.booleans()):
            node[key] = draw(values)
    for key in ("allocatable", "capacity"):
        if draw(st.booleans()):
            node[key] = draw(_mostly(st.dictionaries(KEYS, QUANTITIES, max_size=3), ODD))
    if draw(st.booleans()):
        label_keys = _mostly(st.sampled_from(["a.io/k", "zone", ""]), st.sampled_from([1, True, None]))
        node["labels"] = draw(_mostly(st.dictionaries(label_keys, STRINGS, max_size=4), ODD))
    if draw(st.integers(0, 4)) == 0:
        node["taints"] = draw(st.sampled_from([None, [], [{"key": "k", "effect": "NoSchedule"}]]))
    if draw(st.integers(0, 10)) == 0:
        node["nmae"] = "gpu-0"  # an unknown key
    return node


def _as_read(node: InventoryNode) -> PlainNode:
    return PlainNode(
        node.name, node.vmSize, node.site, node.ready, node.allocatable, node.labels, node.capacity
    )


@given(listed=st.lists(nodes(), max_size=4))
def test_what_is_read_is_what_the_model_reads(listed: list[Any]) -> None:
    read = plain_nodes(listed)
    event("read here" if read else "the model reads them" if read is None else "no nodes")
    if read is None:
        return
    modelled = [InventoryNode.model_validate(node) for node in listed]  # raises if it would refuse one
    assert read == [_as_read(node) for node in modelled]
    assert all(node.taints is None for node in modelled)
    assert [[type(v) for v in r] for r in read] == [[type(v) for v in _as_read(n)] for n in modelled]


def _loaded(path: Path) -> tuple[NodeFacts, ...] | list[Problem]:
    try:
        return load_inventory(path).nodes
    except InputError as err:
        return err.problems


@given(
    listed=st.lists(nodes(), min_size=1, max_size=4), observed=st.sampled_from(["2026-11-28T12:00:00Z", "x"])
)
def test_loading_is_the_same_with_or_without_the_fast_reading(
    listed: list[Any], observed: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    document = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "ClusterInventory",
        "metadata": {"name": "fleet"},
        "observedAt": observed,
        "nodes": listed,
    }
    path = tmp_path_factory.mktemp("inventory") / "inventory.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    with mock.patch.object(taugen.load.inventory, "plain_nodes", return_value=None):
        modelled = _loaded(path)
    assert _loaded(path) == modelled


def test_a_fleet_of_plain_nodes_is_read_without_the_model() -> None:
    """The ordinary node is read here (else the fast reading would never be taken), and each
    unusual value alone sends the nodes to the model (one mutation each)."""
    fine = {"name": "gpu-0", "vmSize": "v", "site": "s", "ready": False, "labels": {"a": "b"}}
    fine |= {"allocatable": {GPU: "8", "cpu": "128"}, "capacity": {GPU: "8"}}
    assert plain_nodes([fine]) == [_as_read(InventoryNode.model_validate(fine))]
    odd: dict[str, Any] = {
        "name": "Upper",
        "vmSize": 7,
        "site": ["s"],
        "ready": "true",
        "labels": {"a": 1},
        "allocatable": {GPU: 8},
        "capacity": {GPU: "8x"},
        "taints": [],
        "nmae": "gpu-0",
    }
    for key, value in odd.items():
        assert plain_nodes([fine, fine | {key: value}]) is None, key
    assert plain_nodes([fine, {**fine, "labels": {1: "b"}}]) is None
    assert plain_nodes({"nodes": [fine]}) is None
