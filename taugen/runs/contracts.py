"""What each scheduler reads off a run's objects (§7 for Kueue, K4/K5 for KAI), behind one Protocol.

render.py and lws.py build the objects; a contract says which labels, annotations and pod
fields carry the scheduling decision. Chosen by the cluster's `scheduler` in CONTRACTS, the
runs' counterpart of taugen/compile/backends.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from taugen.compile.backends.kai import leaf_queue
from taugen.compile.backends.kueue import TOPOLOGY
from taugen.models.profile import Topology
from taugen.resolve.labels import GPU_CLASS, HOSTNAME
from taugen.runs.podsets import PodSet
from taugen.runs.resolution import RunContext

QUEUE_NAME = "kueue.x-k8s.io/queue-name"
PRIORITY_CLASS = "kueue.x-k8s.io/priority-class"
REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology"
UNCONSTRAINED_TOPOLOGY = "kueue.x-k8s.io/podset-unconstrained-topology"
PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology"
SLICE_TOPOLOGY = "kueue.x-k8s.io/podset-slice-required-topology"  # Kueue v0.19.2 topology_types.go
SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size"
SLICE_CONSTRAINTS = "kueue.x-k8s.io/podset-slice-required-topology-constraints"  # TASMultiLayerTopology
PODSET_GROUP = "kueue.x-k8s.io/podset-group-name"
PROFILE = "tau.azure.com/profile"
KAI_SCHEDULER = "kai-scheduler"
KAI_TOPOLOGY = "kai.scheduler/topology"
KAI_REQUIRED = "kai.scheduler/topology-required-placement"
KAI_PREFERRED = "kai.scheduler/topology-preferred-placement"
PREEMPTIBILITY = "kai.scheduler/preemptibility"


class Contract(Protocol):
    suspend: bool  # Kueue admits a suspended Job by unsuspending it

    def owner_labels(self, context: RunContext) -> dict[str, str]: ...

    def owner_annotations(self, context: RunContext) -> dict[str, str]: ...

    def pod_labels(self, context: RunContext) -> dict[str, str]: ...

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        """grouped: the pod templates of one LeaderWorkerSet replica (K5)."""
        ...

    def pod_fields(self, context: RunContext) -> dict[str, Any]: ...

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        """A JobSet's replicatedJob's pod template (K6): Kueue reads one TAS request per pod set."""
        ...


def tas_annotations(
    topology: Topology, level: str | None, preferred: str | None, layers: tuple[tuple[str, int], ...]
) -> dict[str, str]:
    """Exactly one TAS annotation on a GPU pod set (§7), with its slices, outermost first (S3)."""
    if topology == Topology.UNCONSTRAINED:
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


def _common_labels(context: RunContext) -> dict[str, str]:
    labels = {PROFILE: context.entry.name}
    if context.policy.gpu_class is not None:
        labels[GPU_CLASS] = context.policy.gpu_class
    return labels


class KueueContract:
    suspend = True

    def owner_labels(self, context: RunContext) -> dict[str, str]:
        queue = {QUEUE_NAME: context.tenant.localQueue, PRIORITY_CLASS: context.priority_class}
        return {**queue, **_common_labels(context)}

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
        if topology == Topology.UNCONSTRAINED:
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


class KaiContract:
    suspend = False

    def owner_labels(self, context: RunContext) -> dict[str, str]:
        return {**self.pod_labels(context), **_common_labels(context)}

    def owner_annotations(self, context: RunContext) -> dict[str, str]:
        """K4, on the top owner (a LeaderWorkerSet: per replica, one PodGroup each)."""
        if context.policy.gpu_class is None:
            return {}  # CPU nodes carry no level labels: KAI's topology would exclude them all
        found = {KAI_TOPOLOGY: TOPOLOGY}
        if context.level is not None:
            found[KAI_REQUIRED] = context.level
        if context.preferred_level is not None:
            found[KAI_PREFERRED] = context.preferred_level
        elif context.level != HOSTNAME:  # a preferred level at or above the required one does nothing
            found[KAI_PREFERRED] = HOSTNAME
        return found

    def pod_labels(self, context: RunContext) -> dict[str, str]:
        # K4: both tiers preemptible; KAI would make priority >= 100 non-preemptible, in-quota only
        queue = leaf_queue(context.tenant.namespace)
        return {context.state.cluster.queueLabelKey: queue, PREEMPTIBILITY: "preemptible"}

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        return {}

    def pod_fields(self, context: RunContext) -> dict[str, Any]:
        return {"schedulerName": KAI_SCHEDULER}

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        return {}  # K4: on the top owner; jobset_shape.py refuses per-job placement


CONTRACTS: dict[str, Contract] = {"kueue": KueueContract(), "kai": KaiContract()}


def contract_of(context: RunContext) -> Contract:
    return CONTRACTS[context.state.cluster.scheduler]
