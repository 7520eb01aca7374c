"""Objects every backend's tree holds: the PriorityClasses (R20). Node labels: taugen/compile/nodelabels."""

from __future__ import annotations

from taugen.compile.manifest import Manifest, object_

TOPOLOGY = "taugrid-gpu-topology"  # the scheduler's Topology object (Kueue §3, KAI K1)
PRIORITY_TIERS = (("taugrid-default", 1000), ("taugrid-priority", 1200))  # R20, R21


def priority_classes() -> list[Manifest]:
    return [
        Manifest(
            "priorityclasses.yaml",
            object_(
                "scheduling.k8s.io/v1",
                "PriorityClass",
                name,
                value=value,
                globalDefault=False,
                preemptionPolicy="PreemptLowerPriority",
                description=f"taugen tier {name.removeprefix('taugrid-')}: workloads of this tier",
            ),
        )
        for name, value in PRIORITY_TIERS
    ]
