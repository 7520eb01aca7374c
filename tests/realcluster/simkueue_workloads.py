"""Kueue Workloads from taugen's rendered runs, and Kueue's decision read back (issue 31 item 5).

minimalkueue runs no job integration, so the test writes the Workload that Kueue v0.19.2's
integration would: for a Job `pkg/controller/jobs/job/job_controller.go` `PodSets` (one pod set
`main`, count min(parallelism, completions), the pod template, the TAS request its annotations
give with the completion index as pod index label); for a JobSet
`pkg/controller/jobs/jobset/jobset_controller.go` `PodSets` (one per replicatedJob, count
replicas x parallelism, the job index as sub-group label). The TAS request is
`pkg/controller/jobframework/tas.go` `Build`; the priority the WorkloadPriorityClass label's
(`reconciler.go` `ExtractPriority`)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from tests.realcluster.kube import Object
from tests.realcluster.simkueue_objects import Isolation

KUEUE = "kueue.x-k8s.io/v1beta2"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
INDEX = "batch.kubernetes.io/job-completion-index"
JOB_INDEX = "jobset.sigs.k8s.io/job-index"
ANNOTATION = "kueue.x-k8s.io/podset-"
REQUEST = {"required-topology": "required", "preferred-topology": "preferred"}


def workload(manifest: Object, iso: Isolation, priorities: Mapping[str, int]) -> Object:
    """The Workload of a rendered Job or JobSet, in the scenario's namespace."""
    meta = manifest["metadata"]
    if manifest["kind"] == "Job":
        pod_sets = [_pod_set("main", manifest["spec"], None)]
    elif manifest["kind"] == "JobSet":
        pod_sets = [
            _pod_set(job["name"], job["template"]["spec"], job.get("replicas", 1))
            for job in manifest["spec"]["replicatedJobs"]
        ]
    else:
        raise AssertionError(f"simkueue writes no Workload for a {manifest['kind']}")
    priority = meta["labels"][PRIORITY_LABEL]
    spec = {
        "queueName": meta["labels"][QUEUE_LABEL],
        "priorityClassRef": {
            "group": "kueue.x-k8s.io",
            "kind": "WorkloadPriorityClass",
            "name": iso.name(priority),
        },
        "priority": priorities[priority],
        "podSets": pod_sets,
    }
    return {
        "apiVersion": KUEUE,
        "kind": "Workload",
        "metadata": {"name": meta["name"], "namespace": iso.name(meta["namespace"])},
        "spec": spec,
    }


def _pod_set(name: str, job: Object, replicas: int | None) -> Object:
    template = copy.deepcopy(job["template"])
    count = min(job["parallelism"], job.get("completions", job["parallelism"])) * (replicas or 1)
    found: Object = {"name": name, "count": count, "template": template}
    found["topologyRequest"] = topology_request(template.get("metadata", {}).get("annotations", {}), replicas)
    return found


def topology_request(annotations: Mapping[str, str], replicas: int | None) -> Object:
    """jobframework's Build: required, else preferred, else unconstrained; the slice layer(s)
    (JSON constraints, or the one required-topology + size pair); the pod index label always,
    for a Job's or a JobSet's pods."""
    found: Object = {}
    for suffix, key in REQUEST.items():
        if ANNOTATION + suffix in annotations:
            found[key] = annotations[ANNOTATION + suffix]
            break
    else:
        if ANNOTATION + "unconstrained-topology" in annotations:
            found["unconstrained"] = annotations[ANNOTATION + "unconstrained-topology"] == "true"
    constraints = annotations.get(ANNOTATION + "slice-required-topology-constraints")
    if constraints is not None:
        found["podsetSliceRequiredTopologyConstraints"] = json.loads(constraints)
    elif ANNOTATION + "slice-required-topology" in annotations and ANNOTATION + "slice-size" in annotations:
        found["podSetSliceRequiredTopology"] = annotations[ANNOTATION + "slice-required-topology"]
        found["podSetSliceSize"] = int(annotations[ANNOTATION + "slice-size"])
    found["podIndexLabel"] = INDEX
    if replicas is not None:
        found |= {"subGroupIndexLabel": JOB_INDEX, "subGroupCount": replicas}
    return found


@dataclass(frozen=True)
class Decision:
    """Kueue's answer for one Workload: admitted with each pod set's domains, or pending."""

    status: str  # admitted | pending
    flavor: str | None = None  # the first pod set's GPU (or cpu) flavor
    pod_sets: tuple[dict[tuple[str, ...], int], ...] = ()  # per pod set: domain -> pods ({} non-TAS)
    message: str = ""
    levels: tuple[str, ...] = field(default=())
    bypassed: bool = False  # pending with no condition: an equivalent workload failed (see `shape`)

    def same(self, other: Decision) -> bool:
        """The same outcome (a pending message may change as Kueue tries again)."""
        return (self.status, self.flavor, self.pod_sets) == (other.status, other.flavor, other.pod_sets)

    def hosts(self) -> dict[str, int]:
        """Pods per value of the lowest level (the host), over every pod set."""
        found: dict[str, int] = {}
        for domains in self.pod_sets:
            for values, count in domains.items():
                found[values[-1]] = found.get(values[-1], 0) + count
        return found


def decision(live: Object | None) -> Decision | None:
    """None while Kueue has not decided (no QuotaReserved condition yet)."""
    status = (live or {}).get("status") or {}
    reserved = next((c for c in status.get("conditions", []) if c["type"] == "QuotaReserved"), None)
    if reserved is None:
        return None
    if reserved["status"] != "True":
        return Decision("pending", message=reserved.get("message", ""))
    assignments = status["admission"]["podSetAssignments"]
    flavors = assignments[0].get("flavors", {})
    flavor = flavors.get("nvidia.com/gpu") or next(iter(flavors.values()), None)
    decoded = [decode(a.get("topologyAssignment")) for a in assignments]
    levels = next(
        (tuple(a["topologyAssignment"]["levels"]) for a in assignments if "topologyAssignment" in a), ()
    )
    return Decision("admitted", flavor, tuple(decoded), levels=levels)


def decode(assignment: Object | None) -> dict[tuple[str, ...], int]:
    """A v1beta2 TopologyAssignment as domain (its value at every level) -> pods. Each slice
    covers `domainCount` domains; at each level a value is `universal`, or the slice's `prefix`
    + the domain's root + `suffix`; a count is `universal` or the domain's `individual`
    (apis/kueue/v1beta2/workload_types.go; pkg/util/tas/tas_assignment.go `InternalSeqFrom`)."""
    found: dict[tuple[str, ...], int] = {}
    for piece in (assignment or {}).get("slices", []):
        for i in range(piece["domainCount"]):
            values = tuple(_value(level, i) for level in piece["valuesPerLevel"])
            counts = piece["podCounts"]
            count = counts["universal"] if "universal" in counts else counts["individual"][i]
            found[values] = found.get(values, 0) + count
    return found


def _value(level: Object, index: int) -> str:
    if "universal" in level:
        return str(level["universal"])
    individual = level["individual"]
    return f"{individual.get('prefix', '')}{individual['roots'][index]}{individual.get('suffix', '')}"


def shape(obj: Object) -> str:
    """What Kueue v0.19.2 hashes to skip a workload equivalent to one that just failed
    (`SchedulingEquivalenceHashing`, Beta, on: pkg/workload/workload.go `computeSchedulingHash`,
    pkg/util/pod/pod.go `SpecShape`): the priority, and per pod set its name, count, topology
    request and the pod spec's scheduling fields. Such a workload is moved to the inadmissible
    list unevaluated (pkg/cache/queue/cluster_queue.go `PushOrUpdate`) and, with
    `UnadmittedWorkloadsExplicitStatus` off by default, gets no condition at all
    (pkg/controller/core/workload_controller.go)."""
    pod_sets = []
    for pod_set in obj["spec"]["podSets"]:
        pod = pod_set["template"]["spec"]
        containers = [
            {"requests": c.get("resources", {}).get("requests"), "ports": c.get("ports")}
            for c in pod.get("containers", [])
        ]
        fields = ("nodeSelector", "affinity", "tolerations", "priority", "overhead", "resources")
        spec = {"containers": containers} | {k: pod.get(k) for k in fields}
        pod_sets.append([pod_set["name"], pod_set["count"], pod_set.get("topologyRequest"), spec])
    return json.dumps([obj["spec"].get("priority"), pod_sets], sort_keys=True)
