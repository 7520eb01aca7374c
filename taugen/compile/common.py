"""Objects every backend's tree holds: the PriorityClasses (R20, R50).
Node labels: taugen/compile/nodelabels."""

from __future__ import annotations

from taugen.compile.manifest import Manifest, object_
from taugen.models.tiers import Tiers, class_name

TOPOLOGY = "taugrid-gpu-topology"  # the scheduler's Topology object (Kueue §3, KAI K1)
NO_TIERS = Tiers()  # TauGrid's two only (R20, R21)


def priority_classes(tiers: Tiers = NO_TIERS) -> list[Manifest]:
    """One PriorityClass per tier: TauGrid's two (R20) and the project's (R50)."""
    return [
        Manifest(
            "priorityclasses.yaml",
            object_(
                "scheduling.k8s.io/v1",
                "PriorityClass",
                class_name(tier),
                value=value,
                globalDefault=False,
                preemptionPolicy="PreemptLowerPriority",
                description=tiers.description(tier) or f"taugen tier {tier}: workloads of this tier",
            ),
        )
        for tier, value in tiers.values.items()
    ]
