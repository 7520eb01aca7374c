"""LeaderWorkerSet runs (K5): `replicas` groups of `size` pods (one leader, size-1 workers).

The placement constraint applies to each replica, never to the whole set: Kueue admits every
replica as its own workload, and its leader and worker templates name one pod-set group so
they share a domain; KAI makes one PodGroup per replica from the top owner's annotations.
"""

from __future__ import annotations

import copy
from typing import Any

from taugen.compile.manifest import object_
from taugen.engines.runs.resolution import RunContext

API = "leaderworkerset.x-k8s.io/v1"


def leader_worker_set(
    context: RunContext, template: dict[str, Any], leader: dict[str, Any]
) -> dict[str, Any]:
    """The bare object: render adds the top owner's labels and annotations. `leader` is the
    leader's template: the workers' one, or with `leader.resources` its own requests."""
    run = context.run
    spec = {
        "replicas": run.replicas,
        "startupPolicy": "LeaderCreated",
        "leaderWorkerTemplate": {
            "size": run.size,
            "restartPolicy": "RecreateGroupOnPodRestart",  # a replica fails and restarts as one
            "leaderTemplate": copy.deepcopy(leader),
            "workerTemplate": copy.deepcopy(template),
        },
    }
    return object_(API, "LeaderWorkerSet", run.metadata.name, run.metadata.namespace, spec=spec)


def patch(context: RunContext, template: dict[str, Any], leader: dict[str, Any]) -> dict[str, Any]:
    """The contract fragment of a LeaderWorkerSet: the same labels and annotations on the
    leader and the workers; the leader's requests its own when the run gives them."""
    run = context.run
    both = {"leaderTemplate": copy.deepcopy(leader), "workerTemplate": copy.deepcopy(template)}
    spec = {"leaderWorkerTemplate": both}
    return object_(API, "LeaderWorkerSet", run.metadata.name, run.metadata.namespace, spec=spec)
