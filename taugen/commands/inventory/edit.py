"""Apply a live node list to a ClusterInventory's YAML with ruamel's round trip.

Comments, key order, quoting and every hand-written field stay; only the facts of
`changes.py` are written: vmSize, site, ready, allocatable and the provider labels.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from taugen.commands.inventory.changes import PROVIDER_PREFIX, provider_labels
from taugen.core.quantity import Quantity
from taugen.core.timestamps import utc_text
from taugen.load.inventory import Inventory, NodeFacts, NodeTaint

_PLAIN_WOULD_CHANGE_TYPE = re.compile(r"[-+]?[0-9][0-9._eE+-]*")


def refreshed_text(text: str, live: Inventory) -> str:
    """The inventory text with the live facts applied (nodes added, removed and updated)."""
    yaml = _yaml(text)
    data = yaml.load(text)
    default_site = data.get("site")
    new = {n.name: n for n in live.nodes}
    nodes = data["nodes"]
    nodes.fa.set_block_style()  # `nodes: []` of an empty inventory becomes a block list
    for index in reversed(range(len(nodes))):
        if nodes[index]["name"] not in new:
            del nodes[index]
    present = {item["name"] for item in nodes}
    flow = bool(nodes) and _flow(nodes[0].get("allocatable"))
    for item in nodes:
        update_node(item, new[item["name"]], default_site)
    for name in sorted(set(new) - present):
        nodes.append(new_node(new[name], default_site, flow))
    data["observedAt"] = DoubleQuotedScalarString(utc_text(live.observed_at))
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _yaml(text: str) -> YAML:
    yaml = YAML(typ="rt")
    yaml.composer.warn_double_anchors = False  # YAML 1.2: a later anchor of the name wins
    yaml.preserve_quotes = True
    yaml.width = 4096
    sequence, offset = _indent(text)
    yaml.indent(mapping=2, sequence=sequence, offset=offset)
    return yaml


def _indent(text: str) -> tuple[int, int]:
    """The list indentation the file uses under `nodes:` (ruamel cannot detect it)."""
    found = re.search(r"^nodes:[ \t]*\n(?:[ \t]*(?:#.*)?\n)*([ ]*)- ", text, re.MULTILINE)
    offset = len(found.group(1)) if found else 2
    return offset + 2, offset


def _flow(value: Any) -> bool:
    return isinstance(value, CommentedMap) and value.fa.flow_style()


def update_node(item: CommentedMap, node: NodeFacts, default_site: str | None) -> None:
    if node.vm_size is not None and item.get("vmSize") != node.vm_size:
        _put(item, "vmSize", node.vm_size, after="name")
    if node.site is not None and (item.get("site") or default_site) != node.site:
        _put(item, "site", node.site, after="vmSize")
    if item.get("ready", True) != node.ready:
        _put(item, "ready", node.ready, after="site")
    allocatable = item.get("allocatable")
    if not isinstance(allocatable, CommentedMap):
        allocatable = item["allocatable"] = CommentedMap()
    _sync_quantities(allocatable, node.allocatable)
    _sync_labels(item, provider_labels(node.labels))
    _sync_taints(item, node)


def _sync_taints(item: CommentedMap, node: NodeFacts) -> None:
    """R39: the node's taints, once it has any or the inventory lists them; kept in the live order."""
    if node.taints is None or (not node.taints and "taints" not in item):
        return
    live = [_taint(t) for t in node.taints]
    current = item.get("taints")
    if not isinstance(current, list) or [dict(t) for t in current] != [dict(t) for t in live]:
        item["taints"] = live


def _taint(taint: NodeTaint) -> CommentedMap:
    item = CommentedMap(key=taint.key)
    if taint.value:
        item["value"] = taint.value
    item["effect"] = taint.effect
    return item


def _put(item: CommentedMap, key: str, value: Any, after: str) -> None:
    """Set `key`, in place when present, else right after `after` (or the keys before it)."""
    if key in item:
        item[key] = value
        return
    order = ["name", "vmSize", "site", "ready"]
    before = [k for k in order[: order.index(after) + 1] if k in item]
    item.insert(list(item).index(before[-1]) + 1 if before else 0, key, value)


def _sync_quantities(target: CommentedMap, live: Mapping[str, Quantity]) -> None:
    for key in [k for k in target if k not in live]:
        del target[key]
    for key, quantity in sorted(live.items()):
        current = target.get(key)
        if current is None or Quantity.parse(str(current)).value != quantity.value:
            target[key] = _scalar(quantity.canonical())


def _scalar(text: str) -> str:
    """A quantity YAML would read as a number is quoted, as kubectl and the examples write it."""
    return DoubleQuotedScalarString(text) if _PLAIN_WOULD_CHANGE_TYPE.fullmatch(text) else text


def _sync_labels(item: CommentedMap, live: Mapping[str, str]) -> None:
    labels = item.get("labels")
    if not isinstance(labels, CommentedMap):
        if not live:
            return
        labels = item["labels"] = CommentedMap()
    for key in [k for k in labels if k.startswith(PROVIDER_PREFIX) and k not in live]:
        del labels[key]
    for key, value in live.items():
        if labels.get(key) != value:
            labels[key] = value
    if not labels:
        del item["labels"]


def new_node(node: NodeFacts, default_site: str | None, flow: bool) -> CommentedMap:
    item = CommentedMap(name=node.name)
    if node.vm_size is not None:
        item["vmSize"] = node.vm_size
    if node.site is not None and node.site != default_site:
        item["site"] = node.site
    if not node.ready:
        item["ready"] = False
    allocatable = CommentedMap()
    _sync_quantities(allocatable, node.allocatable)
    if flow:
        allocatable.fa.set_flow_style()
    item["allocatable"] = allocatable
    _sync_labels(item, provider_labels(node.labels))
    _sync_taints(item, node)
    return item
