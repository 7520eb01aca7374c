"""A cluster's Topology levels, resolved (SPEC §2, R42, R43): every level's name and node label,
top to bottom, and the label each placement a run may ask for stands on.

A cluster that declares no levels has §2's four (site, network domain, accelerator domain,
host). One that declares them has those, with each contract placement it leaves unmapped kept
at its §2 level: the site above the declared levels, the network and accelerator domains below
them, the host always last. Kueue names a domain by its whole path, so a level of one domain
per node (R14: a node without a network-domain label is its own) above a declared level would
split every domain below it; below the declared levels it only narrows itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taugen.models.levels import ClusterTopology, Placement
from taugen.models.profile import LevelRequest, ProfileTopology, Topology
from taugen.resolve.labels import ACCELERATOR_DOMAIN, HOSTNAME, NETWORK_DOMAIN, SITE

# §2: each contract placement's own level, and the name it goes by (KAI's alias, explain's word)
CONTRACT: Mapping[Placement, tuple[str, str]] = {
    "same-site": ("site", SITE),
    "same-network-domain": ("network-domain", NETWORK_DOMAIN),
    "same-accelerator-domain": ("accelerator-domain", ACCELERATOR_DOMAIN),
}
HOST = ("hostname", HOSTNAME)
_REQUIRED: Mapping[ProfileTopology, Placement] = {
    ProfileTopology.SAME_SITE: "same-site",
    ProfileTopology.SAME_NETWORK_DOMAIN: "same-network-domain",
    ProfileTopology.SAME_ACCELERATOR_DOMAIN: "same-accelerator-domain",
}
_PREFERRED: Mapping[ProfileTopology, Placement | None] = {
    ProfileTopology.PREFER_SITE: "same-site",
    ProfileTopology.PREFER_NETWORK_DOMAIN: "same-network-domain",
    ProfileTopology.PREFER_ACCELERATOR_DOMAIN: "same-accelerator-domain",
    ProfileTopology.PREFER_HOST: None,
}


@dataclass(frozen=True)
class Levels:
    """The levels of a cluster's Topology, top to bottom (host last), and its placements."""

    levels: tuple[tuple[str, str], ...]  # (name, node label)
    placements: Mapping[Placement, str]  # a contract placement -> the label it stands on
    declared: tuple[str, ...] = ()  # the names a run may require or prefer (R43)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label for _, label in self.levels)

    @property
    def own_labels(self) -> tuple[str, ...]:
        """The declared levels' labels: the nodes' own, which taugen does not write (R42)."""
        return tuple(label for name, label in self.levels if name in self.declared)

    def missing(self, labels: Mapping[str, str]) -> tuple[str, ...]:
        """The declared levels' labels a node lacks. Kueue leaves such a node out of
        topology-aware scheduling altogether (v0.19.2 pkg/util/tas/node.go NodeMatchesFlavor:
        a node must carry every level's label), though its GPUs still count as quota."""
        return tuple(label for label in self.own_labels if label not in labels)

    def name_of(self, label: str) -> str:
        return next(name for name, found in self.levels if found == label)

    def label_of(self, name: str) -> str | None:
        """A declared level's label; None for a name the cluster does not declare."""
        if name not in self.declared:
            return None
        return next(label for found, label in self.levels if found == name)

    def contract_label(self, name: str) -> str:
        """A §2 level by its name (a slice's level, S3): the label its placement stands on now."""
        if name in ("host", "hostname"):
            return HOSTNAME
        return self.placements[next(p for p, (found, _) in CONTRACT.items() if found == name)]

    def asking(self, label: str) -> str:
        """How a run asks for a level (a hint's words): the contract placement standing on it,
        else `{required: <name>}` (R43)."""
        if label == HOSTNAME:
            return ProfileTopology.SAME_HOST.value
        placement = next((p for p, found in self.placements.items() if found == label), None)
        return placement if placement is not None else f"{{required: {self.name_of(label)}}}"

    def required(self, topology: Topology) -> str | None:
        """The label a policy requires (same-<placement> or `{required: <level>}`); None: none."""
        if isinstance(topology, LevelRequest):
            return self.label_of(topology.required) if topology.required else None
        if topology == ProfileTopology.SAME_HOST:
            return HOSTNAME
        return self.placements[_REQUIRED[topology]] if topology in _REQUIRED else None

    def preferred(self, topology: Topology) -> str | None:
        """The label a prefer-<placement> or `{preferred: <level>}` policy tries first."""
        if isinstance(topology, LevelRequest):
            return self.label_of(topology.preferred) if topology.preferred else None
        if topology not in _PREFERRED:
            return None
        placement = _PREFERRED[topology]
        return HOSTNAME if placement is None else self.placements[placement]


CONTRACT_LEVELS = Levels(
    (*CONTRACT.values(), HOST), {placement: label for placement, (_, label) in CONTRACT.items()}
)


def levels_of(topology: ClusterTopology | None) -> Levels:
    """R42: the cluster's levels; §2's four when it declares none."""
    if topology is None:
        return CONTRACT_LEVELS
    declared = topology.declared
    own = tuple((level.name, level.label) for level in declared.levels)
    mapped = {p: next(label for name, label in own if name == n) for p, n in declared.placements.items()}
    above = tuple(CONTRACT[p] for p in ("same-site",) if p not in mapped)
    below = tuple(CONTRACT[p] for p in ("same-network-domain", "same-accelerator-domain") if p not in mapped)
    placements = {p: mapped.get(p, CONTRACT[p][1]) for p in CONTRACT}
    return Levels((*above, *own, *below, HOST), placements, tuple(name for name, _ in own))
