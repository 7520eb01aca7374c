"""Resolve one cluster: every node's labels, gpu class and readiness (R1-R4, R10-R17)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter

from taugen.core.errors import Problem, ProblemCollector
from taugen.core.suggest import VERY_CLOSE, closest
from taugen.load.inventory import GPU, Inventory, NodeFacts
from taugen.load.project import ClusterInputs
from taugen.models.platform import TopologyLabels
from taugen.models.project import Cluster
from taugen.resolve.domains import check_tree, sources_of, topology_labels
from taugen.resolve.gpus import MACHINE, PRODUCT, check_sharing, uncounted_gpus
from taugen.resolve.labels import GPU_CLASS, OWN_PREFIXES
from taugen.resolve.levels import Levels, levels_of
from taugen.resolve.rules import RuleSet, check_rules
from taugen.resolve.taints import taint_warnings
from taugen.resolve.topology_sources import source_warnings


@dataclass  # not frozen, as NodeFacts (issue 36: one per node); a value all the same
class ResolvedNode:
    name: str
    ready: bool
    gpus: int
    gpu_class: str | None
    labels: Mapping[str, str]  # what taugen writes on the Node (R29), sorted by key
    facts: NodeFacts


@dataclass(frozen=True)
class ResolvedCluster:
    cluster: Cluster
    inventory: Inventory
    nodes: tuple[ResolvedNode, ...]  # sorted by name
    rules: RuleSet
    warnings: tuple[Problem, ...]
    sharing: Mapping[str, int] = field(default_factory=dict)  # R38: shared classes' factors

    @property
    def sources(self) -> TopologyLabels:
        """R37: the label keys this cluster's domains are read from."""
        return sources_of(self.cluster)

    @property
    def levels(self) -> Levels:
        """R42: the Topology's levels, top to bottom; §2's four when the cluster declares none."""
        return levels_of(self.cluster.topology)

    @property
    def name(self) -> str:
        return self.cluster.name

    @property
    def observed_at(self) -> datetime:
        return self.inventory.observed_at


def resolve(inputs: ClusterInputs) -> ResolvedCluster:
    rule_set = RuleSet(inputs.rules)
    cluster, inventory = inputs.cluster, inputs.inventory
    sources = sources_of(cluster)
    default_site = inventory.site or cluster.site  # R41: the cluster's site is the last fallback
    problems = ProblemCollector()
    problems.extend(check_rules(rule_set, sources))
    nodes: list[ResolvedNode] = []
    placed = []
    for facts in sorted(inventory.nodes, key=attrgetter("name")):
        labels = dict(rule_set.labels_for(facts.vm_size, facts.labels))
        gpu_class, gpus = labels.get(GPU_CLASS), facts.gpus
        if gpu_class is None and gpus > 0:
            problems.add(_unclassified(facts, rule_set))
        if gpu_class is not None:
            topology, found = topology_labels(facts, default_site, sources)
            problems.extend(found)
            labels.update(topology)
            placed.append((facts, labels))
        node = ResolvedNode(facts.name, facts.ready, gpus, gpu_class, dict(sorted(labels.items())), facts)
        nodes.append(node)
    problems.raise_if_any()
    problems.extend(check_tree(placed, sources))
    sharing, errors, shared = check_sharing([(f, labels[GPU_CLASS]) for f, labels in placed])
    problems.extend(errors)
    problems.raise_if_any()
    warnings = (
        *shared,
        *uncounted_gpus(inventory.nodes),
        *taint_warnings(inventory.nodes, cluster.gpuNodeTaints),
        *source_warnings(cluster, placed),
        *(w for n in nodes for w in _drift(n)),
    )
    return ResolvedCluster(cluster, inventory, tuple(nodes), rule_set, warnings, sharing)


def _unclassified(node: NodeFacts, rule_set: RuleSet) -> Problem:
    if node.vm_size is None:
        return _unclassified_by_labels(node)
    known = rule_set.classed_vm_sizes()
    close = closest(node.vm_size, known, VERY_CLOSE)
    guess = f"did you mean {close} ({known[close]})? otherwise " if close else ""
    return node.at("vmSize").problem(
        "R4",
        f"node {node.name} (vmSize {node.vm_size}) has {node.gpus} {GPU} but no rule gives it a {GPU_CLASS}",
        f"{guess}add an extraNodeLabelRules entry matching vmSize {node.vm_size} "
        "with a tau.azure.com/gpu-class label",
    )


def _unclassified_by_labels(node: NodeFacts) -> Problem:
    """R36: a node with no vmSize is matched by the hardware labels it carries."""
    key = next((k for k in (PRODUCT, MACHINE) if k in node.labels), None)
    message = f"node {node.name} (no vmSize) has {node.gpus} {GPU} but no rule gives it a {GPU_CLASS}"
    if key is None:
        return node.at("name").problem(
            "R4",
            message,
            f"label the node {PRODUCT} (GPU feature discovery does), then add an extraNodeLabelRules "
            f"entry `match: {{labels: {{{PRODUCT}: [<its value>]}}}}` with a tau.azure.com/gpu-class label",
        )
    return node.at("labels", key).problem(
        "R4",
        message,
        f"add an extraNodeLabelRules entry `match: {{labels: {{{key}: [{node.labels[key]}]}}}}` "
        "with a tau.azure.com/gpu-class label",
    )


_FOREIGN: set[str] = set()  # label keys seen without taugen's prefixes (a fleet has a few dozen)
_FOREIGN_KEPT = 4096


def _drift(node: ResolvedNode) -> list[Problem]:
    """§1.2: taugen's own labels found on the node are outputs; a different value is drift."""
    labels = node.facts.labels
    if _FOREIGN.issuperset(labels):  # none of taugen's own: one set test, not a test per label
        return []
    drift = []
    own = [k for k in labels if k.startswith(OWN_PREFIXES)]  # rarely any: sort only those (issue 36)
    if len(_FOREIGN) < _FOREIGN_KEPT:
        _FOREIGN.update(k for k in labels if not k.startswith(OWN_PREFIXES))
    for key, value in sorted((k, labels[k]) for k in own):
        if node.labels.get(key) != value:
            wanted = node.labels.get(key)
            shown = repr(wanted) if wanted is not None else "no value"
            drift.append(
                node.facts.at("labels", key)
                .problem(
                    "drift",
                    f"node {node.name}: {key} is {value!r} on the node, taugen resolves {shown}",
                    "the next sync corrects it; check whether the node changed hardware",
                )
                .as_warning()
            )
    return drift
