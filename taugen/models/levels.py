"""A cluster's own topology levels (SPEC R42): the fleet's depth, not §2's four fixed levels.

`topology.levels` lists levels top to bottom, each a name and the node label whose value names
a domain at that level, or names a preset. `topology.placements` maps the contract's
placements onto declared levels; a placement left unmapped keeps its §2 level. The host level
(`kubernetes.io/hostname`) is always the last and is never declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from taugen.models.base import DNSLabel, StrictModel, invalid
from taugen.models.platform import NodeLabelKey

MAX_LEVELS = 16  # Kueue v0.19.2 and KAI v0.17: a Topology's spec.levels has at most 16 entries
HOST_LABEL = "kubernetes.io/hostname"
# The §2 labels taugen computes: they are Topology levels of their own while their placement is
# unmapped, so a declared level cannot name one (R42: labels are unique)
COMPUTED_LABELS = ("tau.azure.com/site", "tau.azure.com/network-domain", "tau.azure.com/accelerator-domain")

Placement = Literal["same-site", "same-network-domain", "same-accelerator-domain"]
# §2's levels keep these names (KAI's aliases, explain's words); a declared level takes another
RESERVED_NAMES = ("site", "network-domain", "accelerator-domain", "hostname", "host")
PLACEMENTS: tuple[Placement, ...] = ("same-site", "same-network-domain", "same-accelerator-domain")
LevelPreset = Literal["eks", "gke", "nvidia", "onprem-racks"]


class DeclaredLevel(StrictModel):
    name: DNSLabel = Field(description="How runs name the level: policy.topology: {required: <name>}")
    label: NodeLabelKey = Field(description="The node label whose value names a domain at this level")


class LevelSet(StrictModel):
    """A preset's levels and the placements it maps (the form `topology.levels: <preset>` expands to)."""

    levels: list[DeclaredLevel]
    placements: dict[Placement, DNSLabel] = Field(default_factory=dict)


_AWS = "topology.k8s.aws/network-node-layer-"
_NVIDIA = "network.topology.nvidia.com/"
_GKE = "cloud.google.com/gce-topology-"
# The providers' documentation each preset comes from: docs/platforms.md ("Topology levels").
LEVEL_PRESETS: Mapping[LevelPreset, LevelSet] = {
    "eks": LevelSet(  # EC2 instance topology: layer 1 the farthest, layer 3 the nodes' own switch
        levels=[DeclaredLevel(name=f"layer-{n}", label=f"{_AWS}{n}") for n in (1, 2, 3)],
        placements={"same-network-domain": "layer-3"},
    ),
    "gke": LevelSet(
        levels=[
            DeclaredLevel(name="block", label=f"{_GKE}block"),
            DeclaredLevel(name="subblock", label=f"{_GKE}subblock"),
        ],
        placements={"same-network-domain": "subblock"},
    ),
    "nvidia": LevelSet(  # NVIDIA Topograph's switch tiers
        levels=[DeclaredLevel(name=tier, label=f"{_NVIDIA}{tier}") for tier in ("core", "spine", "leaf")],
        placements={"same-network-domain": "spine"},
    ),
    "onprem-racks": LevelSet(levels=[DeclaredLevel(name="rack", label="topology.kubernetes.io/rack")]),
}


class ClusterTopology(StrictModel):
    """R42: `topology:` of a cluster entry."""

    levels: LevelPreset | Annotated[list[DeclaredLevel], Field(min_length=1)] = Field(
        description="Top to bottom: a preset (eks, gke, nvidia, onprem-racks) or {name, label} entries; "
        "kubernetes.io/hostname is always the last level and is not listed"
    )
    placements: dict[Placement, DNSLabel] = Field(
        default_factory=dict,
        description="A contract placement -> a declared level's name; an unmapped one keeps its §2 level "
        "(a preset maps its own, which these override)",
    )

    @property
    def declared(self) -> LevelSet:
        """The levels and placements, a preset expanded (its placements under these)."""
        if isinstance(self.levels, str):
            preset = LEVEL_PRESETS[self.levels]
            return LevelSet(levels=preset.levels, placements={**preset.placements, **self.placements})
        return LevelSet(levels=self.levels, placements=self.placements)

    @model_validator(mode="after")
    def _levels_hold(self) -> Self:
        declared = self.declared
        names = [level.name for level in declared.levels]
        _unique(names, "level name", "name each level once")
        labels = [level.label for level in declared.levels]
        _unique(labels, "level label", "give each level its own node label")
        for level in declared.levels:
            if level.name in RESERVED_NAMES:
                raise invalid(
                    f"level name {level.name} is one of the contract's own levels",
                    f"name the level after what it is (rack, block, layer-2); {', '.join(RESERVED_NAMES)} "
                    "are taken",
                    rule="R42",
                )
            if level.label == HOST_LABEL or level.label in COMPUTED_LABELS:
                raise invalid(
                    f"level {level.name} names {level.label}, a level taugen adds itself",
                    "leave kubernetes.io/hostname out (the host level is always the last) and map a "
                    "contract placement to a level of your own instead of naming a tau.azure.com label",
                    rule="R42",
                )
        total = len(names) + len(PLACEMENTS) - len(declared.placements) + 1  # + §2's unmapped, host
        if total > MAX_LEVELS:
            raise invalid(
                f"the Topology would have {total} levels ({len(names)} declared, "
                f"{len(PLACEMENTS) - len(declared.placements)} unmapped contract levels, the host); "
                f"Kueue and KAI take at most {MAX_LEVELS}",
                "declare fewer levels, or map the contract placements onto declared ones",
                rule="R42",
            )
        for placement, name in declared.placements.items():
            if name not in names:
                raise invalid(
                    f"placement {placement} maps to {name}, which is not a declared level",
                    f"map it to one of: {', '.join(names)}",
                    rule="R42",
                )
        return self


def _unique(values: list[str], what: str, hint: str) -> None:
    seen = {v for i, v in enumerate(values) if v in values[:i]}
    if seen:
        raise invalid(f"{what} {sorted(seen)[0]} is declared twice", hint, rule="R42")
