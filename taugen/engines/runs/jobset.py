"""JobSet runs (K6): one replicatedJob per job, each an Indexed Job of `workers` pods.

Kueue admits the JobSet as one workload of one pod set per replicatedJob (v0.19.2
pkg/controller/jobs/jobset: named after it, count = replicas x parallelism), reading each pod
set's TAS request off its own pod template; the queue and priority labels sit on the JobSet.
KAI's podgrouper (plugins/jobset, v0.13+) makes one PodGroup per replicatedJob when the
startup policy is left out, each with the topology of the JobSet's annotations (K4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taugen.compile.manifest import object_
from taugen.engines.runs.contracts import contract_of
from taugen.engines.runs.podsets import PodSet
from taugen.engines.runs.resolution import RunContext

API = "jobset.x-k8s.io/v1alpha2"
Template = Callable[[PodSet], dict[str, Any]]


def job_set(context: RunContext, template: Template, whole: bool = True) -> dict[str, Any]:
    """The bare object (render adds the owner's labels); `template` gives a pod set's pod
    template. `whole`: an applyable JobSet; else the contract fragment of a patch."""
    run = context.run
    jobs = [_replicated(p, template(p), whole) for p in context.pod_sets]
    spec: dict[str, Any] = {"replicatedJobs": jobs}
    if whole and contract_of(context).suspend:
        spec = {"suspend": True, **spec}  # Kueue unsuspends it at admission
    return object_(API, "JobSet", run.metadata.name, run.metadata.namespace, spec=spec)


def _replicated(pod_set: PodSet, template: dict[str, Any], whole: bool) -> dict[str, Any]:
    if not whole:
        return {"name": pod_set.name, "template": {"spec": {"template": template}}}
    job = {
        "completionMode": "Indexed",
        "completions": pod_set.count,
        "parallelism": pod_set.count,
        "template": template,
    }
    return {"name": pod_set.name, "replicas": 1, "template": {"spec": job}}
