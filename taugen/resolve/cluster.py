"""Resolve one cluster: every node's labels, gpu class and readiness (R1-R4, R10-R17)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from taugen.errors import Problem, ProblemCollector
from taugen.load.inventory import GPU, Inventory, NodeFacts
from taugen.load.project import ClusterInputs
from taugen.models.project import Cluster
from taugen.resolve.domains import check_tree, topology_labels
from taugen.resolve.labels import GPU_CLASS, OWN_PREFIXES
from taugen.resolve.rules import RuleSet, check_rules
from taugen.suggest import VERY_CLOSE, closest


@dataclass(frozen=True)
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

    @property
    def name(self) -> str:
        return self.cluster.name

    @property
    def observed_at(self) -> datetime:
        return self.inventory.observed_at


def resolve(inputs: ClusterInputs) -> ResolvedCluster:
    rule_set = RuleSet(inputs.rules)
    problems = ProblemCollector()
    problems.extend(check_rules(rule_set))
    nodes: list[ResolvedNode] = []
    placed = []
    for facts in sorted(inputs.inventory.nodes, key=lambda n: n.name):
        labels = dict(rule_set.labels_for(facts.vm_size))
        gpu_class = labels.get(GPU_CLASS)
        if gpu_class is None and facts.gpus > 0:
            problems.add(_unclassified(facts, rule_set))
        if gpu_class is not None:
            topology, found = topology_labels(facts, inputs.inventory.site)
            problems.extend(found)
            labels.update(topology)
            placed.append((facts, labels))
        node = ResolvedNode(
            facts.name, facts.ready, facts.gpus, gpu_class, dict(sorted(labels.items())), facts
        )
        nodes.append(node)
    problems.raise_if_any()
    problems.extend(check_tree(placed))
    problems.raise_if_any()
    warnings = tuple(w for n in nodes for w in _drift(n))
    return ResolvedCluster(inputs.cluster, inputs.inventory, tuple(nodes), rule_set, warnings)


def _unclassified(node: NodeFacts, rule_set: RuleSet) -> Problem:
    known = rule_set.classed_vm_sizes()
    close = closest(node.vm_size or "", known, VERY_CLOSE)
    guess = f"did you mean {close} ({known[close]})? otherwise " if close else ""
    return node.at("vmSize" if node.vm_size else "name").problem(
        "R4",
        f"node {node.name} (vmSize {node.vm_size or 'unknown'}) has {node.gpus} {GPU} "
        f"but no rule gives it a {GPU_CLASS}",
        f"{guess}add an extraNodeLabelRules entry matching vmSize {node.vm_size or '…'} "
        "with a tau.azure.com/gpu-class label",
    )


def _drift(node: ResolvedNode) -> list[Problem]:
    """§1.2: taugen's own labels found on the node are outputs; a different value is drift."""
    drift = []
    for key, value in sorted(node.facts.labels.items()):
        if key.startswith(OWN_PREFIXES) and node.labels.get(key) != value:
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
