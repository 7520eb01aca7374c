"""Load an inventory in either form into one shape: node facts with their positions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat
from pathlib import Path
from typing import Final, Literal

from taugen.core.errors import InputError, Problem, ProblemCollector, Rule
from taugen.core.names import label_value_error
from taugen.core.quantity import MAX_MAGNITUDE, Quantity
from taugen.load.document import Document, Loc, Position, load_one, read_text
from taugen.load.native import Early
from taugen.load.plain_nodes import PlainNode, plain_nodes
from taugen.load.validate import validate
from taugen.models.inventory import ClusterInventory, KubeNode, NodeList

GPU = "nvidia.com/gpu"
# SPEC §1: taugen's own ClusterInventory, or `kubectl get nodes -o yaml|json` (a NodeList or List)
Form = Literal["ClusterInventory", "NodeList"]
NATIVE: Final = "ClusterInventory"
NODELIST: Final = "NodeList"
RULE: Rule = "inventory"
INSTANCE_TYPE_LABELS = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
REGION_LABEL = "topology.kubernetes.io/region"
REGION_LABELS = (REGION_LABEL, "failure-domain.beta.kubernetes.io/region")  # R41: the legacy one last
EXPORT_HINT = "export with `kubectl get nodes -o yaml` (the YAML of the Node objects, not `kubectl describe`)"
# R41: `kubectl describe node` prints `Name:` first, then these sections at the left margin.
_DESCRIBE = re.compile(
    r"\A\s*Name:[ \t]+\S+[ \t]*\n(?:.*\n)*?(?:Roles|CreationTimestamp|Taints|Conditions):", re.M
)


@dataclass(frozen=True)
class NodeTaint:
    """A taint on a Node (R39), as `spec.taints` or the native inventory's `taints` give it."""

    key: str
    value: str
    effect: str

    @property
    def text(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


SITE_HINT = "a site becomes the tau.azure.com/site label value: use letters, digits, '-', '_', '.'"


# Not frozen: a frozen dataclass's __init__ sets each field through object.__setattr__ (issue 36:
# 0.22 against 0.09 s for 100,000 nodes). Treated as a value all the same; its maps are read-only.
@dataclass
class NodeFacts:
    """What the inventory says about one node, in either form."""

    name: str
    vm_size: str | None
    site: str | None
    ready: bool
    allocatable: Mapping[str, Quantity]
    labels: Mapping[str, str]
    doc: Document
    base: tuple[str | int, ...]
    form: Form
    capacity: Mapping[str, Quantity] = field(default_factory=dict)
    taints: tuple[NodeTaint, ...] | None = None  # None: the inventory does not say (R39)

    @property
    def native(self) -> bool:
        return self.form == NATIVE

    def at(self, field: str, key: str | None = None) -> Position:
        """Position of a field of this node in its file, whichever form it came in."""
        if not self.native and field == "vmSize":
            field, key = "labels", next((k for k in INSTANCE_TYPE_LABELS if k in self.labels), None)
        if not self.native and field == "site":
            field, key = "labels", next((k for k in REGION_LABELS if k in self.labels), REGION_LABEL)
        return self.doc.at(self.base + tuple(_field_loc(field, key, native=self.native)))

    @property
    def gpus(self) -> int:
        quantity = self.allocatable.get(GPU)
        return int(quantity.value) if quantity is not None else 0


def _field_loc(field: str, key: str | None, *, native: bool) -> Loc:
    if native:
        return [field] if key is None else [field, key]
    kube = {
        "name": ["metadata", "name"],
        "labels": ["metadata", "labels"],
        "allocatable": ["status", "allocatable"],
        "capacity": ["status", "capacity"],
        "taints": ["spec", "taints"],
        "ready": ["status", "conditions"],
    }[field]
    return kube if key is None else [*kube, key]


@dataclass(frozen=True)
class Inventory:
    doc: Document
    observed_at: datetime
    observed_at_loc: tuple[str | int, ...]
    site: str | None
    nodes: tuple[NodeFacts, ...]
    form: Form

    @property
    def path(self) -> Path:
        return self.doc.path

    @property
    def observed_at_pos(self) -> Position:
        return self.doc.at(self.observed_at_loc)

    @property
    def nodes_at(self) -> Position:
        return self.doc.at(["nodes" if "nodes" in self.doc.data else "items"])


def load_inventory(path: Path, *, allow_empty: bool = False, early: Early | None = None) -> Inventory:
    """The inventory at `path`; `allow_empty` lets `inventory import` fill one that lists no nodes;
    `early`: an early start of its parse (issue 36: `taugen build`)."""
    doc = _document(path, early)
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    if kind == "ClusterInventory":
        inventory = _native(doc)
    elif kind in ("List", "NodeList"):
        inventory = _kubectl(doc)
    else:
        _refuse_describe(path, doc.text)
        raise InputError(
            [
                doc.at(["kind"]).problem(
                    RULE,
                    f"kind {kind!r} is not an inventory",
                    "use kind: ClusterInventory, or the output of `kubectl get nodes -o yaml`",
                )
            ]
        )
    _check_nodes(inventory, allow_empty)
    return inventory


def _document(path: Path, early: Early | None) -> Document:
    try:
        return load_one(path, early)
    except InputError as err:
        try:
            text = read_text(path)
        except InputError:
            raise err from None
        _refuse_describe(path, text)
        raise


def _refuse_describe(path: Path, text: str | None) -> None:
    """R41: pasted `kubectl describe node` text is not YAML a reader can trust; say what to run."""
    if text is not None and _DESCRIBE.match(text[:4096]):
        message = "this is `kubectl describe node` text, not a node list"
        raise InputError([Problem(path, 1, 1, "R41", message, EXPORT_HINT)]) from None


def _native(doc: Document) -> Inventory:
    read = plain_nodes(doc.data.get("nodes")) if type(doc.data) is dict else None
    taints: Iterable[tuple[NodeTaint, ...] | None] = repeat(None)  # plain nodes say none
    if read is not None:  # issue 36: the model reads the rest; its nodes would come out the same
        model = validate(ClusterInventory, doc, RULE, data={**doc.data, "nodes": []})
    else:
        model = validate(ClusterInventory, doc, RULE)
        read = [
            PlainNode(n.name, n.vmSize, n.site, n.ready, n.allocatable, n.labels, n.capacity)
            for n in model.nodes
        ]
        taints = [
            None if n.taints is None else tuple(NodeTaint(t.key, t.value, t.effect) for t in n.taints)
            for n in model.nodes
        ]
    nodes = tuple(
        NodeFacts(
            n.name,
            n.vm_size,
            n.site,
            n.ready,
            n.allocatable,
            n.labels,
            doc,
            ("nodes", i),
            NATIVE,
            n.capacity,
            t,
        )
        for i, (n, t) in enumerate(zip(read, taints, strict=False))
    )
    return Inventory(doc, model.observedAt, ("observedAt",), model.site, nodes, NATIVE)


def _kubectl(doc: Document) -> Inventory:
    model = validate(NodeList, doc, RULE)
    nodes = tuple(_kube_node(doc, i, n) for i, n in enumerate(model.items))
    beats = [
        (c.lastHeartbeatTime, ("items", i, "status", "conditions", j, "lastHeartbeatTime"))
        for i, n in enumerate(model.items)
        for j, c in enumerate(n.status.conditions)
        if c.type == "Ready" and c.lastHeartbeatTime is not None
    ]
    if not beats:
        raise InputError(
            [
                doc.at(["items"]).problem(
                    RULE,
                    "no node has a Ready condition with lastHeartbeatTime: observedAt is unknown",
                    "export the nodes with `kubectl get nodes -o yaml` from a live cluster",
                )
            ]
        )
    observed_at, loc = max(beats, key=lambda beat: beat[0])  # the heartbeat R31 dates it by
    return Inventory(doc, observed_at, loc, None, nodes, NODELIST)


def _kube_node(doc: Document, index: int, node: KubeNode) -> NodeFacts:
    labels = node.metadata.labels
    vm_size = next((labels[k] for k in INSTANCE_TYPE_LABELS if k in labels), None)
    ready = not node.spec.unschedulable and any(
        c.type == "Ready" and c.status == "True" for c in node.status.conditions
    )
    return NodeFacts(
        node.metadata.name,
        vm_size,
        next((labels[k] for k in REGION_LABELS if k in labels), None),
        ready,
        node.status.allocatable,
        labels,
        doc,
        ("items", index),
        NODELIST,
        node.status.capacity,
        tuple(NodeTaint(t.key, t.value, t.effect) for t in node.spec.taints),
    )


def _check_nodes(inventory: Inventory, allow_empty: bool) -> None:
    problems = ProblemCollector()
    if not inventory.nodes and not allow_empty:
        problems.add(
            inventory.nodes_at.problem(
                RULE, "the inventory lists no nodes", "export the cluster's nodes into it"
            )
        )
    if inventory.site is not None and (why := label_value_error(inventory.site)):
        problems.add(inventory.doc.at(["site"]).problem("R15", f"site {inventory.site!r} {why}", SITE_HINT))
    if not _clear(inventory.nodes):
        problems.extend(node_problems(inventory.nodes))
    problems.raise_if_any()


def _clear(nodes: tuple[NodeFacts, ...]) -> bool:
    """Whether node_problems would find nothing, told from each distinct name, site and quantity
    looked at once (issue 36: the node by node look took 0.33 s at 100,000 nodes). False only
    means node_problems must look: a GPU total that may pass 2^63-1 is looked at there."""
    if len({node.name for node in nodes}) != len(nodes):
        return False
    # by identity: a fleet's quantities are a few shared objects (the parse cache), and a
    # Quantity's own hash (its Fraction's) costs a microsecond
    values = {id(q): q for node in nodes for q in node.allocatable.values()}
    gpus = {id(q): q.value for node in nodes if (q := node.allocatable.get(GPU)) is not None}
    if any(q.value.numerator < 0 for q in values.values()) or any(g.denominator != 1 for g in gpus.values()):
        return False
    if len(nodes) * max((g.numerator for g in gpus.values()), default=0) > MAX_MAGNITUDE:
        return False
    return not any(label_value_error(site) for site in {node.site for node in nodes} if site is not None)


def node_problems(nodes: tuple[NodeFacts, ...]) -> list[Problem]:
    """Each node's own problems (a duplicate name, a quantity, a site) and the GPU total's."""
    problems = ProblemCollector()
    problems.extend(_gpu_total_problems(nodes))
    seen: dict[str, NodeFacts] = {}
    for node in nodes:
        if node.name in seen:
            first = seen[node.name].at("name")
            problems.add(
                node.at("name").problem(
                    RULE,
                    f"duplicate node name {node.name!r} (first at line {first.line})",
                    "each node appears once; remove or rename one",
                )
            )
        seen.setdefault(node.name, node)
        problems.extend(_quantity_problems(node))
        if node.site is not None and (why := label_value_error(node.site)):
            problems.add(node.at("site").problem("R15", f"site {node.site!r} {why}", SITE_HINT))
    return problems.problems


def _gpu_total_problems(nodes: tuple[NodeFacts, ...]) -> list[Problem]:
    """Issue 17 item 7: a gpu-class's quota is a sum of these counts; it must stay an int64."""
    total = 0
    for node in nodes:
        total += node.gpus
        if total > MAX_MAGNITUDE:
            return [
                node.at("allocatable", GPU).problem(
                    RULE,
                    f"the inventory's {GPU} counts sum to more than 2^63-1 at node {node.name}",
                    "a GPU quota is a Kubernetes quantity: fix the node's GPU count",
                )
            ]
    return []


def _quantity_problems(node: NodeFacts) -> list[Problem]:
    # a Fraction's sign is its numerator's; the usual node has no problem and is not sorted (issue 36)
    odd = [
        (resource, quantity)
        for resource, quantity in node.allocatable.items()
        if quantity.value.numerator < 0 or (resource == GPU and quantity.value.denominator != 1)
    ]
    found = []
    for resource, quantity in sorted(odd):
        if quantity.value < 0:
            found.append(
                node.at("allocatable", resource).problem(
                    RULE,
                    f"node {node.name}: allocatable {resource} is negative ({quantity})",
                    "use a value >= 0",
                )
            )
        elif resource == GPU and not quantity.is_integer():
            found.append(
                node.at("allocatable", resource).problem(
                    RULE,
                    f"node {node.name}: allocatable {GPU} must be a whole number, not {quantity}",
                    "GPUs are counted in whole devices",
                )
            )
    return found
