"""What KAI Scheduler reads off a run's objects (K4, K5): the queue label, preemptibility, the
scheduler name on pods, and the topology annotations on the top owner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from taugen.compile.common import TOPOLOGY
from taugen.resolve.labels import HOSTNAME
from taugen.schedulers.kai.compile import kai_of, leaf_queue
from taugen.schedulers.labels import common_labels

if TYPE_CHECKING:
    from taugen.engines.runs.podsets import PodSet
    from taugen.engines.runs.resolution import RunContext

KAI_SCHEDULER = "kai-scheduler"
KAI_TOPOLOGY = "kai.scheduler/topology"
KAI_REQUIRED = "kai.scheduler/topology-required-placement"
KAI_PREFERRED = "kai.scheduler/topology-preferred-placement"
PREEMPTIBILITY = "kai.scheduler/preemptibility"


class KaiContract:
    suspend = False

    def owner_labels(self, context: RunContext) -> dict[str, str]:
        return {**self.pod_labels(context), **common_labels(context)}

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
        return {kai_of(context.state.cluster).queueLabelKey: queue, PREEMPTIBILITY: "preemptible"}

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        return {}

    def pod_fields(self, context: RunContext) -> dict[str, Any]:
        return {"schedulerName": KAI_SCHEDULER}

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        return {}  # K4: on the top owner; jobset_shape.py refuses per-job placement
