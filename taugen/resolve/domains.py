"""Topology domains of a GPU node (R11-R14) and the tree check (R16)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from taugen.core.errors import Problem
from taugen.core.names import LABEL_VALUE_MAX, label_value_error
from taugen.load.inventory import REGION_LABEL, NodeFacts
from taugen.models.platform import PRESETS, TopologyLabels
from taugen.models.project import Cluster
from taugen.resolve.labels import (
    ACCELERATOR_DOMAIN,
    HOSTNAME,
    INFINIBAND,
    NETWORK_DOMAIN,
    PROVIDER_ACCELERATOR_DOMAIN,
    PROVIDER_NETWORK_DOMAIN,
    SITE,
)

SINGLETON = "singleton-"
_value_error = lru_cache(maxsize=1 << 12)(label_value_error)  # a fabric's 512 hosts share its value


def singleton(hostname: str) -> str:
    """R14: deterministic, distinct per node, always a valid label value."""
    plain = SINGLETON + hostname
    if label_value_error(plain) is None:
        return plain
    head = hostname[:44].rstrip("-_.")
    digest = hashlib.sha256(hostname.encode()).hexdigest()[:8]
    return f"{SINGLETON}{head}-{digest}"


def hostname_of(node: NodeFacts) -> str:
    return node.labels.get(HOSTNAME, node.name)


def sources_of(cluster: Cluster) -> TopologyLabels:
    """R37: the cluster's topology label keys, from its preset or its own lists."""
    chosen = cluster.topologyLabels
    return PRESETS[chosen] if isinstance(chosen, str) else chosen


def source_key(node: NodeFacts, keys: Sequence[str]) -> str | None:
    """R37: the first of `keys` the node carries (None: the domain is a singleton, R14)."""
    labels = node.labels
    for key in keys:  # a loop, not next() over a generator: twice per GPU node (issue 36)
        if key in labels:
            return key
    return None


def topology_labels(
    node: NodeFacts, default_site: str | None, sources: TopologyLabels
) -> tuple[dict[str, str], list[Problem]]:
    """The site, network-domain, accelerator-domain (and infiniband) labels of a GPU node."""
    problems: list[Problem] = []
    site = node.site or default_site
    if site is None:
        problems.append(_no_site(node))
    network = source_key(node, sources.networkDomain)
    labels = {
        SITE: site or "",
        NETWORK_DOMAIN: _domain(node, network, problems),
        ACCELERATOR_DOMAIN: _domain(node, source_key(node, sources.acceleratorDomain), problems),
    }
    if network == PROVIDER_NETWORK_DOMAIN:
        labels[INFINIBAND] = "true"  # R12: an authoritative shared fabric
    return labels, problems


def _no_site(node: NodeFacts) -> Problem:
    if node.native:
        hint = "set `site:` on the node, at the top of the inventory, or on the cluster in taugen.yaml"
    else:  # R41: a NodeList holds no `site:`; the cluster's is the last fallback
        hint = f"label the node {REGION_LABEL}, or set `site:` on the cluster in taugen.yaml"
    message = f"node {node.name} has no site and neither the inventory nor the cluster sets a default site"
    return node.at("name").problem("R11", message, hint)


def _domain(node: NodeFacts, provider: str | None, problems: list[Problem]) -> str:
    """A level's value: the provider label's, else the node's singleton (R12-R14)."""
    value = None if provider is None else node.labels[provider]
    if provider is None or value is None:
        hostname = hostname_of(node)
        if why := label_value_error(hostname):  # R15: it would reach a singleton value
            problems.append(
                node.at("labels", HOSTNAME).problem(
                    "R15",
                    f"node {node.name}: label {HOSTNAME}={hostname!r} {why}",
                    "fix the label in the inventory",
                )
            )
        elif hostname and len(SINGLETON) + len(hostname) <= LABEL_VALUE_MAX:
            return SINGLETON + hostname  # a valid value behind the prefix is one: singleton's own (issue 36)
        return singleton(hostname)  # R12/R13: never implied by GPU model
    if why := _value_error(value):
        problems.append(
            node.at("labels", provider).problem(
                "R15",
                f"node {node.name}: label {provider}={value!r} {why}",
                "fix the provider label value in the inventory",
            )
        )
    return value


@dataclass(frozen=True)
class DomainSource:
    """Why a GPU node has its domain value (R12-R14); computed on demand by `taugen explain`."""

    provider_label: str | None  # the provider label the value came from; None: a singleton
    reason: str


_IMPLIES = {NETWORK_DOMAIN: "a shared fabric", ACCELERATOR_DOMAIN: "a shared NVLink island"}


def domain_source(node: NodeFacts, keys: Sequence[str], level: str) -> DomainSource:
    """Provider label or singleton, and why (the same rule `_domain` applies, R37's keys in order)."""
    if (provider := source_key(node, keys)) is not None:
        return DomainSource(provider, f"the provider label {provider}={node.labels[provider]}")
    hostname = hostname_of(node)
    named = " or ".join(keys) if keys else "topology"
    reason = f"the node has no {named} label, and the same GPU model never implies {_IMPLIES[level]}"
    if singleton(hostname) != SINGLETON + hostname:
        reason += f"; {SINGLETON}{hostname} is not a valid label value, so it is shortened and hashed"
    return DomainSource(None, reason)


def check_tree(
    placed: Sequence[tuple[NodeFacts, dict[str, str]]], sources: TopologyLabels = PRESETS["default"]
) -> list[Problem]:
    """R16: an accelerator domain lies in one network domain of one site."""
    split = _split_domains(placed)
    if not split:
        return []
    sides: dict[str, dict[tuple[str, str], list[NodeFacts]]] = defaultdict(lambda: defaultdict(list))
    for node, labels in placed:
        if (domain := labels[ACCELERATOR_DOMAIN]) in split:
            sides[domain][(labels[SITE], labels[NETWORK_DOMAIN])].append(node)
    problems = []
    for domain, by_parent in sorted(sides.items()):
        if len(by_parent) < 2:
            continue
        parts = sorted(by_parent.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        described = "; ".join(
            f"{site}/{net}: {', '.join(sorted(n.name for n in nodes))}" for (site, net), nodes in parts
        )
        first_odd = min(parts[1][1], key=lambda n: n.name)
        key = source_key(first_odd, sources.acceleratorDomain) or PROVIDER_ACCELERATOR_DOMAIN
        network = source_key(first_odd, sources.networkDomain) or " or ".join(sources.networkDomain)
        problems.append(
            first_odd.at("labels", key).problem(
                "R16",
                f"accelerator domain {domain!r} is split across {len(parts)} network domains or sites "
                f"({described})",
                "an NVLink island lies in one fabric of one site: fix the nodes' "
                f"{network or 'network-domain'} or {key} labels",
            )
        )
    return problems


def _split_domains(placed: Sequence[tuple[NodeFacts, dict[str, str]]]) -> set[str]:
    """The accelerator domains met under two parents (site, network domain): each node looked at
    once, each domain remembered with its first parent only (issue 36: a fleet's singleton
    domains are most of its nodes, and grouping every node by domain and parent cost 0.1 s)."""
    first: dict[str, tuple[str, str]] = {}
    split = set()
    for _, labels in placed:
        parent = (labels[SITE], labels[NETWORK_DOMAIN])
        if first.setdefault(labels[ACCELERATOR_DOMAIN], parent) != parent:
            split.add(labels[ACCELERATOR_DOMAIN])
    return split
