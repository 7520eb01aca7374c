"""A native inventory's nodes read without the model when nothing in them can be wrong (issue 36).

The model (models/inventory.InventoryNode) takes 0.5-0.6 s for 100,000 nodes, most of it in its
Python validators (a DNS name, each quantity), and its objects are then copied into NodeFacts. A
node that is a plain mapping of the model's own keys, each value of the one type the model takes
as it is, gives the same values read here: the nodes' NodeFacts took 0.7 s instead of 0.9 s.
Anything else, a wrong value or only an unusual one (taints, a key of another type, an int
quantity), makes `plain_nodes` give None: the model then reads every node, and reports any
problem with its position, as before.

`tests/property/test_plain_nodes.py` holds the two equal: for any nodes, right or wrong, what
is read here is what the model reads, and loading reports the same problems.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from taugen.core.names import dns1123_subdomain_error
from taugen.core.quantity import Quantity, QuantityError
from taugen.models.inventory import InventoryNode

KEYS = frozenset(InventoryNode.model_fields)
_EMPTY: dict[str, Any] = {}


class PlainNode(NamedTuple):
    """A native node's values, read here or taken from the model's node (its taints apart)."""

    name: str
    vm_size: str | None
    site: str | None
    ready: bool
    allocatable: Mapping[str, Quantity]
    labels: Mapping[str, str]
    capacity: Mapping[str, Quantity]


def plain_nodes(items: Any) -> list[PlainNode] | None:
    """Every node of the inventory's `nodes:` list, or None when the model must read them."""
    if type(items) is not list:
        return None
    read = []
    seen: dict[tuple[tuple[str, str], ...], dict[str, Quantity]] = {}  # a fleet repeats a few
    for node in items:
        if type(node) is not dict or not KEYS.issuperset(node) or node.get("taints") is not None:
            return None
        name, vm_size, site = node.get("name"), node.get("vmSize"), node.get("site")
        ready = node.get("ready", True)
        if type(name) is not str or type(ready) is not bool or dns1123_subdomain_error(name):
            return None
        if (vm_size is not None and type(vm_size) is not str) or (site is not None and type(site) is not str):
            return None
        labels = node.get("labels", _EMPTY)
        allocatable = _quantities(node.get("allocatable", _EMPTY), seen)
        capacity = _quantities(node.get("capacity", _EMPTY), seen)
        if not _strings(labels) or allocatable is None or capacity is None:
            return None
        read.append(PlainNode(name, vm_size, site, ready, allocatable, labels, capacity))
    return read


def _strings(given: Any) -> bool:
    """A mapping of strings to strings: what the model's dict[str, str] takes as it is."""
    if type(given) is not dict:
        return False
    try:  # a join takes strings alone, at C speed
        "".join(given)
        "".join(given.values())
    except TypeError:
        return False
    return True


def _quantities(
    given: Any, seen: dict[tuple[tuple[str, str], ...], dict[str, Quantity]]
) -> Mapping[str, Quantity] | None:
    """Quantities written as strings (the model's QuantityField also takes an int: the model then
    reads the nodes), each mapping parsed once and shared by the nodes that write it alike
    (read-only: NodeFacts holds Mappings)."""
    if not _strings(given):
        return None
    items = tuple(given.items())
    parsed = seen.get(items)
    if parsed is None:
        try:
            parsed = seen[items] = {key: Quantity.parse(value) for key, value in items}
        except QuantityError:
            return None
    return parsed
