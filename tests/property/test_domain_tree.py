"""R16's tree check looks at each node once to find the accelerator domains met under two parents
(resolve/domains._split_domains, issue 36), and groups only their nodes: for any placement, the
problems are those of grouping every node, as before. A singleton domain's value (R14) is
the same whether singleton looks at the hostname again or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import yaml
from hypothesis import given
from hypothesis import strategies as st

import taugen.resolve.domains
from taugen.core.names import label_value_error
from taugen.load.document import fast_documents
from taugen.load.inventory import _native
from taugen.resolve.domains import check_tree, singleton
from taugen.resolve.labels import ACCELERATOR_DOMAIN, NETWORK_DOMAIN, SITE

LEVELS = st.fixed_dictionaries(
    {
        SITE: st.sampled_from(["eastus", "westus"]),
        NETWORK_DOMAIN: st.sampled_from(["ib-0", "ib-1", "singleton-a"]),
        ACCELERATOR_DOMAIN: st.sampled_from(["nvl-0", "nvl-1", "singleton-a", "singleton-b"]),
    }
)


def _facts(count: int) -> Any:
    nodes = [{"name": f"gpu-{i}", "labels": {"x.io/rack": f"r{i}"}} for i in range(count)]
    document: dict[str, Any] = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "ClusterInventory"}
    document |= {"metadata": {"name": "f"}, "observedAt": "2026-11-28T12:00:00Z", "nodes": nodes}
    (doc,) = fast_documents(Path("inventory.yaml"), yaml.safe_dump(document))
    return _native(doc).nodes


@given(levels=st.lists(LEVELS, max_size=12))
def test_the_tree_check_finds_what_grouping_every_node_finds(levels: list[dict[str, str]]) -> None:
    placed = list(zip(_facts(len(levels)), levels, strict=True))
    every = {labels[ACCELERATOR_DOMAIN] for labels in levels}
    with mock.patch.object(taugen.resolve.domains, "_split_domains", return_value=every):
        grouped = check_tree(placed)
    assert check_tree(placed) == grouped


def test_a_domain_under_two_parents_is_found() -> None:
    facts = _facts(3)
    one = {SITE: "eastus", NETWORK_DOMAIN: "ib-0", ACCELERATOR_DOMAIN: "nvl-0"}
    placed = [(facts[0], one), (facts[1], one | {NETWORK_DOMAIN: "ib-1"}), (facts[2], one)]
    (problem,) = check_tree(placed)
    assert problem.rule == "R16" and "'nvl-0' is split across 2" in problem.message
    assert check_tree([(facts[0], one), (facts[2], one)]) == []


@given(hostname=st.text(alphabet="aZ9-_.é ", max_size=70))
def test_a_valid_hostname_gets_the_singleton_value_singleton_gives(hostname: str) -> None:
    """_domain skips singleton's second look at a valid hostname (issue 36): the same value."""
    node = _facts(1)[0]
    problems: list[Any] = []
    with mock.patch.object(taugen.resolve.domains, "hostname_of", return_value=hostname):
        value = taugen.resolve.domains._domain(node, None, problems)
    assert value == singleton(hostname)
    assert bool(problems) == (label_value_error(hostname) is not None)
