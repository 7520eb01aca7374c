"""`taugen render`: a run's Indexed Job (and torchrun Service) or LeaderWorkerSet, carrying its
scheduler's contract (§7 for Kueue, K4/K5 for KAI: taugen/engines/runs/contracts.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from taugen.compile.manifest import annotate, label, object_
from taugen.core.choices import RENDER_FORMATS
from taugen.core.quantity import Quantity
from taugen.emit.canonical import dump, ordered
from taugen.engines.runs import jobset, lws, torchrun
from taugen.engines.runs.contracts import contract_of
from taugen.engines.runs.podsets import PodSet
from taugen.engines.runs.resolution import RunContext, require_ready
from taugen.models.node_filters import NodeRequirement
from taugen.models.platform import GpuTaint
from taugen.models.run import Launcher, Workload
from taugen.resolve.labels import GPU_CLASS

Format = Literal["manifest", "patch"]
FORMATS: tuple[Format, ...] = RENDER_FORMATS
CONTAINER = "main"
KINDS = {Workload.LEADERWORKERSET: "LeaderWorkerSet", Workload.JOBSET: "JobSet"}


def gpu_tolerations(taints: Sequence[GpuTaint]) -> list[dict[str, str]]:
    """R24, R39: a GPU run tolerates the taints of its cluster's GPU nodes (gpuNodeTaints)."""
    return [
        {"key": t.key, "operator": "Equal", "value": t.value, "effect": t.effect}
        if t.value
        else {"key": t.key, "operator": "Exists", "effect": t.effect}
        for t in taints
    ]


def render(context: RunContext, fmt: Format = "manifest") -> str:
    """The YAML to print; InputError (exit 2) when R32 refuses the run."""
    require_ready(context)
    run, cluster = context.run, context.state.cluster.name
    about = f"run {run.metadata.name} (profile {run.profile}, cluster {cluster})"
    if fmt == "patch":
        kind = KINDS.get(run.workload, "Job")
        header = f"# taugen's contract for {about}: merge it into your {kind} (container {CONTAINER}).\n"
        return dump([ordered(patch(context))], header).decode()
    header = f"# Rendered by taugen for {about}. Render again instead of editing.\n"
    return dump([ordered(o) for o in manifests(context)], header).decode()


def manifests(context: RunContext) -> list[dict[str, Any]]:
    if context.jobset:
        return [owned(context, jobset.job_set(context, lambda p: _pod_set_template(context, p, whole=True)))]
    if context.run.workload == Workload.LEADERWORKERSET:
        leader = template(context, _full_pod(context, leader=True))
        return [owned(context, lws.leader_worker_set(context, template(context, _full_pod(context)), leader))]
    objects = [job(context)]
    if context.multi_node:
        objects.append(torchrun.service(context.run))
    return objects


def job(context: RunContext) -> dict[str, Any]:
    run = context.run
    pod = _full_pod(context)
    pod["restartPolicy"] = "Never"
    if context.multi_node:
        pod["subdomain"] = run.metadata.name  # hostname <job>-<index> under the headless Service
    spec: dict[str, Any] = {
        "completionMode": "Indexed",
        "completions": run.workers,
        "parallelism": run.workers,
    }
    if contract_of(context).suspend:
        spec["suspend"] = True  # Kueue unsuspends it at admission
    spec["template"] = template(context, pod)
    return owned(context, object_("batch/v1", "Job", run.metadata.name, run.metadata.namespace, spec=spec))


def patch(context: RunContext) -> dict[str, Any]:
    """Only the contract fragment: labels, annotations, pod fields and requests (§7, K4, K5)."""
    if context.jobset:
        fragment = jobset.job_set(context, lambda p: _pod_set_template(context, p, whole=False), whole=False)
        return owned(context, fragment)
    pod = pod_contract(context)
    pod["containers"] = [{"name": CONTAINER, "resources": resources(context)}]
    if context.run.workload == Workload.LEADERWORKERSET:
        leader = pod_contract(context)
        leader["containers"] = [{"name": CONTAINER, "resources": resources(context, leader=True)}]
        return owned(context, lws.patch(context, template(context, pod), template(context, leader)))
    run = context.run
    spec = {"template": template(context, pod)}
    return owned(context, object_("batch/v1", "Job", run.metadata.name, run.metadata.namespace, spec=spec))


def owned(context: RunContext, obj: dict[str, Any]) -> dict[str, Any]:
    """The top owner's labels and annotations (the scheduler reads the workload's from them)."""
    contract = contract_of(context)
    label(obj, contract.owner_labels(context))
    if annotations := contract.owner_annotations(context):
        annotate(obj, annotations)
    return obj


def pod_contract(context: RunContext) -> dict[str, Any]:
    pod: dict[str, Any] = {
        **contract_of(context).pod_fields(context),
        "priorityClassName": context.priority_class,
    }
    classes = context.policy.classes
    if len(classes) == 1:
        pod["nodeSelector"] = {GPU_CLASS: classes[0]}
    if classes and (tolerations := gpu_tolerations(context.state.cluster.gpuNodeTaints)):
        pod["tolerations"] = tolerations  # every GPU flavor's nodes carry the cluster's GPU taints
    wanted = list(context.run.policy.node_affinity or [])
    if len(classes) > 1:  # R47: no node selector; Kueue's flavor assignment injects the chosen
        # flavor's nodeLabels, and considers only the flavors this term allows (the listed classes)
        wanted.append(NodeRequirement(key=GPU_CLASS, operator="In", values=classes))
    if wanted:
        pod["affinity"] = node_affinity(wanted)
    return pod


def node_affinity(requirements: Sequence[NodeRequirement]) -> dict[str, Any]:
    """policy.node_affinity as the pod's one required nodeSelectorTerm (every requirement holds)."""
    expressions = [
        {"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}
        for r in requirements
    ]
    term = {"matchExpressions": expressions}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}}


def resources(context: RunContext, leader: bool = False) -> dict[str, Any]:
    """A worker's requests, or with `leader` a LeaderWorkerSet leader's own (K5)."""
    return requests_of((context.leader_request if leader else None) or context.request)


def requests_of(request: dict[str, Quantity]) -> dict[str, Any]:
    wanted = {name: str(q) for name, q in request.items()}
    # Extended resources (GPUs, the slot) cannot be overcommitted: limits equal requests.
    limits = {name: q for name, q in wanted.items() if _extended(name)}
    return {"requests": wanted, "limits": limits} if limits else {"requests": wanted}


def template(context: RunContext, pod: dict[str, Any]) -> dict[str, Any]:
    contract = contract_of(context)
    grouped = context.run.workload == Workload.LEADERWORKERSET
    return _pod_template(contract.pod_labels(context), contract.pod_annotations(context, grouped), pod)


def _pod_template(labels: dict[str, str], annotations: dict[str, str], pod: dict[str, Any]) -> dict[str, Any]:
    metadata: dict[str, Any] = {}
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    return {"metadata": metadata, "spec": pod} if metadata else {"spec": pod}


def _pod_set_template(context: RunContext, pod_set: PodSet, whole: bool) -> dict[str, Any]:
    """A replicatedJob's pod template (K6): the contract, its own TAS request and requests."""
    contract = contract_of(context)
    pod = pod_contract(context)
    container: dict[str, Any] = {"name": CONTAINER}
    if whole:
        pod["restartPolicy"] = "Never"
        container |= {"image": pod_set.image, "command": list(pod_set.command)}
    pod["containers"] = [container | {"resources": requests_of(pod_set.request)}]
    return _pod_template(contract.pod_labels(context), contract.pod_set_annotations(context, pod_set), pod)


def _full_pod(context: RunContext, leader: bool = False) -> dict[str, Any]:
    pod = pod_contract(context)
    pod["containers"] = [_container(context, leader)]
    return pod


def _extended(name: str) -> bool:
    return ("/" in name and not name.startswith("kubernetes.io/")) or name.startswith("hugepages-")


def _container(context: RunContext, leader: bool = False) -> dict[str, Any]:
    run = context.run
    container: dict[str, Any] = {
        "name": CONTAINER,
        "image": run.image,
        "resources": resources(context, leader),
    }
    if run.launcher == Launcher.TORCHRUN:
        container["command"] = torchrun.command(run)
        if env := torchrun.env(run):
            container["env"] = env
    else:
        container["command"] = list(run.command)
    return container
