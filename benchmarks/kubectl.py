"""The fleet as `kubectl get nodes -o yaml|json` prints it: AKS-like Node objects, noise included."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from benchmarks.fleet import REGION, FleetNode, Pool
from benchmarks.render import Slot, json_template, yaml_scalar, yaml_template

PROVIDER = "net.unbounded-cloud.io"
SUBSCRIPTION = "3f2a9c1e-7b6d-4e58-9a0c-2d1b8e7f6a54"
RESOURCE_GROUP = "mc_rg-taugrid_eastus-prod_eastus"
CONDITIONS = (  # AKS node-problem-detector conditions, then the kubelet's
    ("KernelDeadlock", "KernelHasNoDeadlock", "kernel has no deadlock"),
    ("FrequentContainerdRestart", "NoFrequentContainerdRestart", "containerd is functioning properly"),
    ("FilesystemCorruptionProblem", "FilesystemIsOK", "Filesystem is healthy"),
    ("KubeletProblem", "KubeletIsUp", "kubelet service is up"),
    ("VMEventScheduled", "NoVMEventScheduled", "VM has no scheduled event"),
    ("NetworkUnavailable", "RouteCreated", "RouteController created a route"),
    ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
    ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
)
READY = {
    "ready": ("True", "KubeletReady", "kubelet is posting ready status"),
    "cordoned": ("True", "KubeletReady", "kubelet is posting ready status"),
    "notready": (
        "False",
        "KubeletNotReady",
        "container runtime network not ready: cni plugin not initialized",
    ),
    "unknown": ("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."),
}
BASE_IMAGES = ("oss/kubernetes/kube-proxy", "oss/kubernetes-csi/azuredisk-csi", "oss/kubernetes/pause")
GPU_IMAGES = ("nvidia/k8s-device-plugin", "nvidia/dcgm-exporter", "nvidia/gpu-operator-validator")
Shape = tuple[str, bool, bool, str]


def state(node: FleetNode) -> str:
    if node.cordoned:
        return "cordoned"
    if node.ready:
        return "ready"
    return "notready" if node.index % 2 else "unknown"


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def values(node: FleetNode, observed: datetime) -> dict[str, object]:
    """The per-node values of a template (plain Python values, not yet rendered)."""
    ids = hashlib.blake2b(node.name.encode(), digest_size=48).hexdigest()
    scale_set, instance = node.name.rsplit("vmss", 1)
    beat = observed - timedelta(seconds=node.index * 7 % 41)
    if state(node) == "unknown":
        beat -= timedelta(hours=3)
    return {
        "name": node.name,
        "uid": _uuid(ids[:32]),
        "rv": str(1_000_003 + node.index * 17),
        "created": _ts(observed - timedelta(days=30 + node.index % 60)),
        "agentpool": node.agentpool,
        "zone": f"{REGION}-{node.zone}",
        "csi": json.dumps({"disk.csi.azure.com": node.name, "file.csi.azure.com": node.name}),
        "cidr": f"10.{64 + node.index // 65536}.{node.index // 256 % 256}.{node.index % 256}/32",
        "ip": f"10.{node.index // 65536}.{node.index // 256 % 256}.{node.index % 256}",
        "provider": f"azure:///subscriptions/{SUBSCRIPTION}/resourceGroups/{RESOURCE_GROUP}/providers"
        f"/Microsoft.Compute/virtualMachineScaleSets/{scale_set}vmss/virtualMachines/{int(instance, 36)}",
        "beat": _ts(beat),
        "since": _ts(observed - timedelta(days=2, seconds=node.index % 3600)),
        "boot": _uuid(ids[32:64]),
        "machine": ids[64:96],
        "fabric": node.fabric or "",
        "rack": node.rack or "",
    }


def _uuid(hex32: str) -> str:
    return f"{hex32[:8]}-{hex32[8:12]}-4{hex32[13:16]}-a{hex32[17:20]}-{hex32[20:32]}"


def node_object(node: FleetNode, images: int, v: dict[str, Any]) -> dict[str, Any]:
    """One Node; `v` holds its values, or Slots to make a template of this node's shape."""
    pool, kind = node.pool, state(node)
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": v["name"],
            "uid": v["uid"],
            "resourceVersion": v["rv"],
            "creationTimestamp": v["created"],
            "labels": _labels(node, v),
            "annotations": {
                "csi.volume.kubernetes.io/nodeid": v["csi"],
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
        },
        "spec": {
            "podCIDR": v["cidr"],
            "podCIDRs": [v["cidr"]],
            "providerID": v["provider"],
            **({"taints": _taints(pool, kind, v)} if pool.gpus or kind != "ready" else {}),
            **({"unschedulable": True} if kind == "cordoned" else {}),
        },
        "status": {
            "addresses": [
                {"address": v["ip"], "type": "InternalIP"},
                {"address": v["name"], "type": "Hostname"},
            ],
            "allocatable": _resources(pool, allocatable=True),
            "capacity": _resources(pool, allocatable=False),
            "conditions": _conditions(kind, v),
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": _images(pool, images),
            "nodeInfo": _node_info(v),
        },
    }


def _labels(node: FleetNode, v: dict[str, Any]) -> dict[str, Any]:
    pool = node.pool
    labels: dict[str, Any] = {
        "agentpool": v["agentpool"],
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": pool.vm_size,
        "beta.kubernetes.io/os": "linux",
        "failure-domain.beta.kubernetes.io/region": REGION,
        "failure-domain.beta.kubernetes.io/zone": v["zone"],
        "kubernetes.azure.com/agentpool": v["agentpool"],
        "kubernetes.azure.com/cluster": RESOURCE_GROUP,
        "kubernetes.azure.com/mode": "system" if pool.key == "system" else "user",
        "kubernetes.azure.com/node-image-version": "AKSUbuntu-2204gen2containerd-202611.10.0",
        "kubernetes.azure.com/nodepool-type": "VirtualMachineScaleSets",
        "kubernetes.azure.com/os-sku": "Ubuntu",
        "kubernetes.azure.com/role": "agent",
        "kubernetes.azure.com/storageprofile": "managed",
        "kubernetes.azure.com/storagetier": "Premium_LRS",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": v["name"],
        "kubernetes.io/os": "linux",
        "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "",
        "node.kubernetes.io/instance-type": pool.vm_size,
        "topology.disk.csi.azure.com/zone": v["zone"],
        "topology.kubernetes.io/region": REGION,
        "topology.kubernetes.io/zone": v["zone"],
    }
    if pool.gpus:
        labels["nvidia.com/gpu.present"] = "true"
    if node.fabric:
        labels[f"{PROVIDER}/network-domain"] = v["fabric"]
    if node.rack:
        labels[f"{PROVIDER}/accelerator-domain"] = v["rack"]
    return labels


def _taints(pool: Pool, kind: str, v: dict[str, Any]) -> list[dict[str, Any]]:
    taints: list[dict[str, Any]] = (
        [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}] if pool.gpus else []
    )
    if kind == "cordoned":
        taints.append(
            {"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": v["beat"]}
        )
    elif kind in ("notready", "unknown"):
        key = "node.kubernetes.io/not-ready" if kind == "notready" else "node.kubernetes.io/unreachable"
        taints.append({"effect": "NoSchedule", "key": key, "timeAdded": v["since"]})
    return taints


def _resources(pool: Pool, *, allocatable: bool) -> dict[str, str]:
    cpu = f"{pool.cpu * 1000 - 1400}m" if allocatable else str(pool.cpu)
    memory_ki = pool.memory_gi * 1024 * 1024 - (24_000_000 if allocatable else 0)
    resources = {
        "cpu": cpu,
        "ephemeral-storage": "2750000000" if allocatable else "2845262828Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": f"{memory_ki}Ki",
        "pods": "110",
    }
    if pool.gpus:
        resources["nvidia.com/gpu"] = str(pool.gpus)
    return resources


def _conditions(kind: str, v: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [(t, "False", reason, message) for t, reason, message in CONDITIONS]
    rows.append(("Ready", *READY[kind]))
    return [
        {
            "lastHeartbeatTime": v["beat"],
            "lastTransitionTime": v["since"],
            "message": message,
            "reason": reason,
            "status": status,
            "type": kind_,
        }
        for kind_, status, reason, message in rows
    ]


def _images(pool: Pool, count: int) -> list[dict[str, Any]]:
    repos = (*GPU_IMAGES, *BASE_IMAGES) if pool.gpus else BASE_IMAGES
    images = []
    for i in range(count):
        repo = f"mcr.microsoft.com/{repos[i % len(repos)]}"
        tag = f"v1.{i // len(repos)}.{i % 7}"
        digest = hashlib.sha256(f"{repo}:{tag}".encode()).hexdigest()
        images.append({"names": [f"{repo}@sha256:{digest}", f"{repo}:{tag}"], "sizeBytes": 10_000_000 + i})
    return images


def _node_info(v: dict[str, Any]) -> dict[str, Any]:
    return {
        "architecture": "amd64",
        "bootID": v["boot"],
        "containerRuntimeVersion": "containerd://1.7.27-1",
        "kernelVersion": "5.15.0-1089-azure",
        "kubeProxyVersion": "",
        "kubeletVersion": "v1.33.2",
        "machineID": v["machine"],
        "operatingSystem": "linux",
        "osImage": "Ubuntu 22.04.5 LTS",
        "systemUUID": v["uid"],
    }


_VALUE_NAMES = "name uid rv created agentpool zone csi cidr ip provider beat since boot machine fabric rack"
SLOTS = {name: Slot(name) for name in _VALUE_NAMES.split()}


def kubectl_yaml(fleet: Iterable[FleetNode], observed: datetime, images: int) -> Iterator[str]:
    """The List as YAML text, in pieces."""
    templates: dict[Shape, str] = {}
    yield "apiVersion: v1\nitems:\n"
    for node in fleet:
        shape = (node.pool.key, node.fabric is not None, node.rack is not None, state(node))
        template = templates.get(shape)
        if template is None:
            body = yaml_template(node_object(node, images, SLOTS), 2)
            template = templates[shape] = "- " + body[2:]
        yield template.format_map({k: yaml_scalar(x) for k, x in values(node, observed).items()})
    yield 'kind: List\nmetadata:\n  resourceVersion: ""\n'


def kubectl_json(fleet: Iterable[FleetNode], observed: datetime, images: int) -> Iterator[str]:
    """The List as JSON text, in pieces."""
    templates: dict[Shape, str] = {}
    yield '{\n    "apiVersion": "v1",\n    "items": [\n'
    for i, node in enumerate(fleet):
        shape = (node.pool.key, node.fabric is not None, node.rack is not None, state(node))
        template = templates.get(shape)
        if template is None:
            template = templates[shape] = json_template(node_object(node, images, SLOTS), 8)
        text = template.format_map({k: json.dumps(x) for k, x in values(node, observed).items()})
        yield (",\n" if i else "") + text
    yield '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'
