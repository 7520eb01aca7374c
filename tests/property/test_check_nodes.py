"""An inventory's nodes are checked in bulk (load/inventory._clear, issue 36): a look at each distinct
name, site and quantity tells a fleet with nothing wrong, and only then is the node by node
look (node_problems: duplicate names, negative or fractional quantities, sites, the GPU total)
skipped. For any nodes, right or wrong, loading reports exactly what the node by node look
reports, positions included."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import taugen.load.inventory
from taugen.core.errors import InputError, Problem
from taugen.load.document import fast_documents
from taugen.load.inventory import _clear, _native, load_inventory, node_problems

PATH = Path("inventory.yaml")
# a few of each, so that names repeat and odd values meet ordinary ones
NAMES = st.sampled_from(["a-0", "a-1", "b-0", "gpu-7"])
GPUS = st.sampled_from(["8", "0", "4", "-1", "0.5", "1500m", "4611686018427387904", "9223372036854775807"])
OTHERS = st.sampled_from(["128", "1800Gi", "-1", "0.5", "100m"])
SITES = st.sampled_from([None, "eastus", "west_us.2", "bad site", "-edge", "x" * 64])


@st.composite
def nodes(draw: st.DrawFn) -> dict[str, Any]:
    allocatable = {"cpu": draw(OTHERS)}
    if draw(st.booleans()):
        allocatable["nvidia.com/gpu"] = draw(GPUS)
    if draw(st.booleans()):
        allocatable["memory"] = draw(OTHERS)
    node: dict[str, Any] = {
        "name": draw(NAMES),
        "vmSize": "Standard_ND96isr_H100_v5",
        "allocatable": allocatable,
    }
    if (site := draw(SITES)) is not None:
        node["site"] = site
    return node


def _inventory(listed: list[dict[str, Any]]) -> str:
    document = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "ClusterInventory",
        "metadata": {"name": "fleet"},
        "observedAt": "2026-11-28T12:00:00Z",
        "nodes": listed,
    }
    return yaml.safe_dump(document, sort_keys=False)


def _problems(path: Path) -> list[Problem]:
    try:
        load_inventory(path)
    except InputError as err:
        return err.problems
    return []


@given(listed=st.lists(nodes(), min_size=1, max_size=6))
def test_loading_reports_what_the_node_by_node_look_reports(
    listed: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = _inventory(listed)
    (doc,) = fast_documents(PATH, text)
    facts = _native(doc).nodes
    looked = node_problems(facts)
    if _clear(facts):
        assert looked == []
    path = tmp_path_factory.mktemp("inventory") / PATH
    path.write_text(text)
    with mock.patch.object(taugen.load.inventory, "_clear", return_value=False):
        always = _problems(path)
    assert _problems(path) == always


def test_each_fault_alone_is_not_clear() -> None:
    """Each thing node_problems finds makes the bulk look step aside (one mutation each)."""
    fine = [
        {"name": "a-0", "allocatable": {"cpu": "128", "nvidia.com/gpu": "8"}, "site": "eastus"},
        {"name": "a-1", "allocatable": {"cpu": "128", "nvidia.com/gpu": "8"}},
    ]
    faults = {
        "duplicate name": (1, "name", "a-0"),
        "negative cpu": (1, "allocatable", {"cpu": "-1", "nvidia.com/gpu": "8"}),
        "fractional gpu": (1, "allocatable", {"cpu": "1", "nvidia.com/gpu": "1500m"}),
        "gpu total past 2^63-1": (1, "allocatable", {"cpu": "1", "nvidia.com/gpu": "9223372036854775807"}),
        "bad site": (1, "site", "bad site"),
    }
    (doc,) = fast_documents(PATH, _inventory(fine))
    assert _clear(_native(doc).nodes)
    for fault, (index, key, value) in faults.items():
        listed = [dict(node) for node in fine]
        listed[index][key] = value
        (doc,) = fast_documents(PATH, _inventory(listed))
        facts = _native(doc).nodes
        assert not _clear(facts), fault
        assert node_problems(facts), fault
