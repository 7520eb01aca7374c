"""`taugen render`: a run's Indexed Job (and torchrun Service) carrying every element of §7."""

from __future__ import annotations

from typing import Any, Literal

from taugen.compile.manifest import label, object_
from taugen.emit import dump, ordered
from taugen.models.profile import Topology
from taugen.models.run import Launcher
from taugen.resolve.labels import GPU_CLASS
from taugen.runs import torchrun
from taugen.runs.context import RunContext, require_ready

Format = Literal["manifest", "patch"]
FORMATS: tuple[Format, ...] = ("manifest", "patch")
CONTAINER = "main"
QUEUE_NAME = "kueue.x-k8s.io/queue-name"
PRIORITY_CLASS = "kueue.x-k8s.io/priority-class"
REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology"
UNCONSTRAINED_TOPOLOGY = "kueue.x-k8s.io/podset-unconstrained-topology"
PROFILE = "tau.azure.com/profile"
GPU_TOLERATION = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}  # R24


def render(context: RunContext, fmt: Format = "manifest") -> str:
    """The YAML to print; InputError (exit 2) when R32 refuses the run."""
    require_ready(context)
    run, cluster = context.run, context.state.cluster.name
    about = f"run {run.metadata.name} (profile {run.profile}, cluster {cluster})"
    if fmt == "patch":
        header = f"# taugen's contract for {about}: merge it into your Job (container {CONTAINER}).\n"
        return dump([ordered(patch(context))], header).decode()
    header = f"# Rendered by taugen for {about}. Render again instead of editing.\n"
    return dump([ordered(o) for o in manifests(context)], header).decode()


def manifests(context: RunContext) -> list[dict[str, Any]]:
    objects = [job(context)]
    if context.multi_node:
        objects.append(torchrun.service(context.run))
    return objects


def job(context: RunContext) -> dict[str, Any]:
    run = context.run
    pod = pod_contract(context)
    pod["restartPolicy"] = "Never"
    pod["containers"] = [_container(context)]
    if context.multi_node:
        pod["subdomain"] = run.metadata.name  # hostname <job>-<index> under the headless Service
    obj = object_(
        "batch/v1",
        "Job",
        run.metadata.name,
        run.metadata.namespace,
        spec={
            "completionMode": "Indexed",
            "completions": run.workers,
            "parallelism": run.workers,
            "suspend": True,  # Kueue unsuspends it at admission
            "template": _template(context, pod),
        },
    )
    label(obj, workload_labels(context))
    return obj


def patch(context: RunContext) -> dict[str, Any]:
    """Only the contract fragment: labels, annotations, pod fields and requests (§7)."""
    pod = pod_contract(context)
    pod["containers"] = [{"name": CONTAINER, "resources": resources(context)}]
    run = context.run
    template = _template(context, pod)
    obj = object_("batch/v1", "Job", run.metadata.name, run.metadata.namespace, spec={"template": template})
    label(obj, workload_labels(context))
    return obj


def workload_labels(context: RunContext) -> dict[str, str]:
    labels = {
        QUEUE_NAME: context.tenant.localQueue,
        PRIORITY_CLASS: context.priority_class,
        PROFILE: context.entry.name,
    }
    if context.policy.gpu_class is not None:
        labels[GPU_CLASS] = context.policy.gpu_class
    return labels


def tas_annotations(context: RunContext) -> dict[str, str]:
    """Exactly one TAS annotation on a GPU pod set; none on the non-TAS CPU flavor (R23)."""
    if context.policy.gpu_class is None:
        return {}
    if context.policy.topology == Topology.UNCONSTRAINED:
        return {UNCONSTRAINED_TOPOLOGY: "true"}
    assert context.level is not None
    return {REQUIRED_TOPOLOGY: context.level}


def pod_contract(context: RunContext) -> dict[str, Any]:
    pod: dict[str, Any] = {"priorityClassName": context.priority_class}
    if context.policy.gpu_class is not None:
        pod["nodeSelector"] = {GPU_CLASS: context.policy.gpu_class}
        pod["tolerations"] = [dict(GPU_TOLERATION)]
    return pod


def resources(context: RunContext) -> dict[str, Any]:
    wanted = {name: str(q) for name, q in context.request.items()}
    # Extended resources (GPUs, the slot) cannot be overcommitted: limits equal requests.
    limits = {name: q for name, q in wanted.items() if _extended(name)}
    return {"requests": wanted, "limits": limits} if limits else {"requests": wanted}


def _template(context: RunContext, pod: dict[str, Any]) -> dict[str, Any]:
    template: dict[str, Any] = {"spec": pod}
    if annotations := tas_annotations(context):
        template["metadata"] = {"annotations": annotations}
    return template


def _extended(name: str) -> bool:
    return ("/" in name and not name.startswith("kubernetes.io/")) or name.startswith("hugepages-")


def _container(context: RunContext) -> dict[str, Any]:
    run = context.run
    container: dict[str, Any] = {"name": CONTAINER, "image": run.image, "resources": resources(context)}
    if run.launcher == Launcher.TORCHRUN:
        container["command"] = torchrun.command(run)
        if env := torchrun.env(run):
            container["env"] = env
    else:
        container["command"] = list(run.command)
    return container
