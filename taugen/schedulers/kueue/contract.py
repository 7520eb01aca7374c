"""What Kueue reads off a run's objects (§7): the queue and priority labels, one TAS request per
pod set (S3: with its slices), the pod-set group of a LeaderWorkerSet replica (K5)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from taugen.models.profile import ProfileTopology, Topology
from taugen.schedulers.labels import common_labels

if TYPE_CHECKING:
    from taugen.engines.runs.podsets import PodSet
    from taugen.engines.runs.resolution import RunContext

QUEUE_NAME = "kueue.x-k8s.io/queue-name"
PRIORITY_CLASS = "kueue.x-k8s.io/priority-class"
REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology"
UNCONSTRAINED_TOPOLOGY = "kueue.x-k8s.io/podset-unconstrained-topology"
PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology"
SLICE_TOPOLOGY = "kueue.x-k8s.io/podset-slice-required-topology"  # Kueue v0.19.2 topology_types.go
SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size"
SLICE_CONSTRAINTS = "kueue.x-k8s.io/podset-slice-required-topology-constraints"  # TASMultiLayerTopology
PODSET_GROUP = "kueue.x-k8s.io/podset-group-name"


def tas_annotations(
    topology: Topology, level: str | None, preferred: str | None, layers: tuple[tuple[str, int], ...]
) -> dict[str, str]:
    """Exactly one TAS annotation on a GPU pod set (§7), with its slices, outermost first (S3)."""
    if topology == ProfileTopology.UNCONSTRAINED:
        return {UNCONSTRAINED_TOPOLOGY: "true"}
    found: dict[str, str] = {}
    if preferred is not None:
        found[PREFERRED_TOPOLOGY] = preferred
    else:
        assert level is not None
        found[REQUIRED_TOPOLOGY] = level
    if len(layers) == 1:
        found[SLICE_TOPOLOGY], found[SLICE_SIZE] = layers[0][0], str(layers[0][1])
    elif layers:  # Kueue takes the constraints or the two annotations, never both
        constraints = [{"topology": level, "size": size} for level, size in layers]
        found[SLICE_CONSTRAINTS] = json.dumps(constraints, separators=(",", ":"))
    return found


class KueueContract:
    suspend = True

    def owner_labels(self, context: RunContext) -> dict[str, str]:
        queue = {QUEUE_NAME: context.tenant.localQueue, PRIORITY_CLASS: context.priority_class}
        return {**queue, **common_labels(context)}

    def owner_annotations(self, context: RunContext) -> dict[str, str]:
        return {}

    def pod_labels(self, context: RunContext) -> dict[str, str]:
        return {}

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        """Exactly one TAS annotation on a GPU pod set; none on the non-TAS CPU flavor (R23).
        K5: a replica's leader and workers name one pod-set group, so they share a domain."""
        if context.policy.gpu_class is None:
            return {}
        topology = context.policy.topology
        if topology == ProfileTopology.UNCONSTRAINED:
            return {UNCONSTRAINED_TOPOLOGY: "true"}  # a group needs a required level: none here
        group = {PODSET_GROUP: context.run.metadata.name} if grouped else {}
        # Kueue forbids slices with a group: shape.py
        found = tas_annotations(topology, context.level, context.preferred_level, context.slice_layers)
        return {**group, **found}

    def pod_fields(self, context: RunContext) -> dict[str, Any]:
        return {}

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        if pod_set.gpu_class is None:
            return {}  # the non-TAS CPU flavor (R23)
        return tas_annotations(pod_set.topology, pod_set.level, pod_set.preferred_level, pod_set.slice_layers)
