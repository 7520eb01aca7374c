"""`taugen explain node`: every label a node gets, and where it comes from.

Provenance is computed here, for one node, by running the rule matching and the domain
choice again (R2, R12-R14): a build never pays for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from taugen.commands.explain.readiness import ready_reason, site_source
from taugen.compile.manifest import MANAGED_BY
from taugen.context.cluster import ClusterView
from taugen.core.errors import InputError
from taugen.core.suggest import closest
from taugen.load.inventory import NodeFacts
from taugen.load.rules import LoadedRule
from taugen.models.platform import taint_text
from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import domain_source, hostname_of
from taugen.resolve.labels import (
    ACCELERATOR_DOMAIN,
    INFINIBAND,
    NETWORK_DOMAIN,
    PROVIDER_NETWORK_DOMAIN,
    SITE,
)
from taugen.resolve.rules import matcher_text
from taugen.schedulers.kueue.compile import CPU_FLAVOR, flavor_name


@dataclass(frozen=True)
class LabelOrigin:
    key: str
    value: str
    source: str  # rule | built-in rule | provider label | singleton | site
    origin: str  # file:line:col of the rule, the provider label, or why
    rule: str  # the SPEC rule that applies
    overrides: tuple[str, ...] = ()  # earlier rules that set the key too (R2: the last wins)


MANAGED_BY_ORIGIN = LabelOrigin(
    MANAGED_BY, "taugen", "taugen", "every object taugen writes carries it, the partial Node too", "§4"
)


@dataclass(frozen=True)
class NodeExplanation:
    cluster: str
    name: str
    vm_size: str | None
    gpus: int
    ready: bool
    ready_reason: str
    gpu_class: str | None
    labels: tuple[LabelOrigin, ...]
    hostname: str | None  # the hostname level's value (the kubelet's label); None without a class
    flavor: str  # the ResourceFlavor whose nodeLabels select the node (R23, R24)
    taints: tuple[str, ...] = ("sku=gpu:NoSchedule",)  # the GPU flavor's nodeTaints (R24, R39)

    @property
    def counts_toward_quota(self) -> bool:
        return self.gpu_class is not None  # R26: Ready or not

    @property
    def counts_toward_slots(self) -> bool:
        return self.gpu_class is not None and self.ready  # R27


def explain_node(view: ClusterView, name: str) -> NodeExplanation:
    node = _find(view, name)
    facts = node.facts
    sources = view.resolved.rules.sources_for(facts.vm_size, facts.labels)
    labels = tuple(_origin(view, facts, k, v, sources.get(k, [])) for k, v in node.labels.items())
    if labels and _partial_nodes(view):  # §4: on every object taugen writes, the partial Node too
        labels = tuple(sorted((*labels, MANAGED_BY_ORIGIN), key=lambda o: o.key))
    return NodeExplanation(
        view.name,
        node.name,
        facts.vm_size,
        node.gpus,
        node.ready,
        ready_reason(facts),
        node.gpu_class,
        labels,
        hostname_of(facts) if node.gpu_class else None,
        flavor_name(node.gpu_class) if node.gpu_class else CPU_FLAVOR,
        tuple(taint_text(t) for t in view.cluster.gpuNodeTaints),
    )


def _partial_nodes(view: ClusterView) -> bool:
    """Labels reach the node as a partial Node (the default); with nfd, through its rules only."""
    return getattr(view.cluster, "nodeLabels", "node") == "node"


def _find(view: ClusterView, name: str) -> ResolvedNode:
    found = next((n for n in view.resolved.nodes if n.name == name), None)
    if found is not None:
        return found
    names = [n.name for n in view.resolved.nodes]
    close = closest(name, names)
    hint = f"did you mean {close}?" if close else "`taugen explain class CLASS` lists a class's nodes"
    where = view.resolved.inventory.nodes_at
    raise InputError([where.problem("usage", f"node {name} is not in cluster {view.name}'s inventory", hint)])


def _origin(
    view: ClusterView, facts: NodeFacts, key: str, value: str, rules: list[LoadedRule]
) -> LabelOrigin:
    if rules:
        *earlier, last = rules
        overridden = tuple(_overridden(view, r, key) for r in earlier)
        return LabelOrigin(key, value, *_rule_source(view, last, key), "R2", overridden)
    if key == SITE:
        return LabelOrigin(key, value, "site", site_source(facts), "R11")
    if key == INFINIBAND:
        return LabelOrigin(key, value, "provider label", PROVIDER_NETWORK_DOMAIN, "R12")
    topology = view.resolved.sources  # R37: the cluster's keys, first carried wins
    keys = {NETWORK_DOMAIN: topology.networkDomain, ACCELERATOR_DOMAIN: topology.acceleratorDomain}[key]
    source = domain_source(facts, keys, key)
    rule = "R12" if key == NETWORK_DOMAIN else "R13"
    if source.provider_label is not None:
        return LabelOrigin(key, value, "provider label", source.provider_label, rule)
    return LabelOrigin(key, value, "singleton", source.reason, "R14")


def _overridden(view: ClusterView, loaded: LoadedRule, key: str) -> str:
    source, origin = _rule_source(view, loaded, key)
    return f"{source} {origin}: {loaded.rule.labels[key]}"


def _rule_source(view: ClusterView, loaded: LoadedRule, key: str) -> tuple[str, str]:
    matcher = matcher_text(loaded.rule.match)
    at = loaded.label_at(key, of_key=True)
    if at is None:
        return "built-in rule", matcher
    return "rule", f"{view.relative(at.path)}:{at.line}:{at.col} ({matcher})"
