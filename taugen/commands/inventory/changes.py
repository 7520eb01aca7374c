"""What a live node list changes in an inventory, fact by fact (issue 11: `inventory import`).

Facts are what the cluster knows better than Git: vmSize, site (when the node has a region
label), readiness, allocatable, taints (R39) and the provider labels taugen reads: the fabric
labels of every topology preset and NVIDIA's `nvidia.com/` hardware labels that rules match
(R36, R37). Every other field and label of the inventory was written by hand and is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taugen.core.quantity import Quantity
from taugen.load.inventory import Inventory, NodeFacts, NodeTaint

PROVIDER_PREFIX = (
    "net.unbounded-cloud.io/",
    "nvidia.com/",
    "topology.k8s.aws/",
    "cloud.google.com/gce-topology-",
    "network.topology.nvidia.com/",
)


@dataclass(frozen=True)
class NodeChange:
    name: str
    changes: tuple[str, ...]  # "vmSize A -> B", "allocatable nvidia.com/gpu 8 -> 4", …


@dataclass(frozen=True)
class FleetChanges:
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[NodeChange, ...]
    unchanged: int


def provider_labels(labels: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(labels.items()) if k.startswith(PROVIDER_PREFIX)}


def fleet_changes(current: Inventory, live: Inventory) -> FleetChanges:
    old = {n.name: n for n in current.nodes}
    new = {n.name: n for n in live.nodes}
    changed = []
    for name in sorted(set(old) & set(new)):
        found = node_changes(old[name], new[name], current.site)
        if found:
            changed.append(NodeChange(name, tuple(found)))
    return FleetChanges(
        tuple(sorted(set(new) - set(old))),
        tuple(sorted(set(old) - set(new))),
        tuple(changed),
        len(set(old) & set(new)) - len(changed),
    )


def node_changes(old: NodeFacts, new: NodeFacts, default_site: str | None) -> list[str]:
    found = []
    if new.vm_size is not None and new.vm_size != old.vm_size:
        found.append(f"vmSize {old.vm_size} -> {new.vm_size}")
    site = old.site or default_site
    if new.site is not None and new.site != site:
        found.append(f"site {site} -> {new.site}")
    if new.ready != old.ready:
        found.append(f"ready {str(old.ready).lower()} -> {str(new.ready).lower()}")
    found += _map_changes("allocatable", _quantities(old.allocatable), _quantities(new.allocatable))
    found += _map_changes("label", provider_labels(old.labels), provider_labels(new.labels))
    if old.taints is not None and new.taints is not None and _texts(old.taints) != _texts(new.taints):
        found.append(
            f"taints {', '.join(_texts(old.taints)) or 'none'} -> {', '.join(_texts(new.taints)) or 'none'}"
        )
    return found


def _texts(taints: tuple[NodeTaint, ...]) -> list[str]:
    return sorted(t.text for t in taints)


def _quantities(values: Mapping[str, Quantity]) -> dict[str, str]:
    return {k: q.canonical() for k, q in values.items()}


def _map_changes(what: str, old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    found = []
    for key in sorted(set(old) | set(new)):
        if key not in new:
            found.append(f"{what} {key} removed (was {old[key]})")
        elif key not in old:
            found.append(f"{what} {key} added: {new[key]}")
        elif old[key] != new[key]:
            found.append(f"{what} {key} {old[key]} -> {new[key]}")
    return found
