"""Kueue backend (SPEC §3): topology, flavors, the ClusterQueue and tenant LocalQueues."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taugen.compile.common import PRIORITY_TIERS
from taugen.compile.manifest import Manifest, annotate, object_
from taugen.compile.quota import ClassQuota
from taugen.errors import InputError
from taugen.models.platform import Taint
from taugen.quantity import canonical
from taugen.resolve.cluster import ResolvedCluster
from taugen.resolve.labels import CPU_CLASS, GPU_CLASS, LEVELS, PLATFORM_PREFIX

API = "kueue.x-k8s.io/v1beta2"
TOPOLOGY = "taugrid-gpu-topology"
CPU_FLAVOR = PLATFORM_PREFIX + CPU_CLASS
SLOT = "tau.azure.com/torchrun-host-slot"
READY_SLOTS = "tau.azure.com/ready-torchrun-host-slots"
COVERED = ("cpu", "memory", "nvidia.com/gpu", SLOT)  # R25, in this order
MAX_FLAVORS = 64  # Kueue: flavors per resource group
NAMESPACE_LABEL = "kubernetes.io/metadata.name"
CPU_QUOTA = canonical(100_000)  # R25; "100k" is how the API server prints it (§3)
MEMORY_QUOTA = canonical("100Ti")
FLAVORS_FILE = "resourceflavors.yaml"
QUEUE_FILE = "clusterqueue.yaml"


def flavor_name(gpu_class: str) -> str:
    return f"taugrid-{gpu_class}"  # R24


WAVES: Mapping[str, str] = {  # §4
    "WorkloadPriorityClass": "-2",
    "Topology": "-2",
    "ResourceFlavor": "-1",
    "ClusterQueue": "0",
    "LocalQueue": "1",
}


class KueueBackend:
    name: str = "kueue"
    crd_groups: tuple[str, ...] = ("kueue.x-k8s.io",)
    catalog_namespace: str = "kueue-system"

    def wave(self, manifest: Manifest) -> str:
        return WAVES[manifest.kind]

    def compile(self, cluster: ResolvedCluster, quotas: Sequence[ClassQuota]) -> list[Manifest]:
        _check_flavor_limit(cluster, quotas)
        return [
            *_workload_priority_classes(),
            Manifest(
                "topology.yaml",
                object_(
                    API,
                    "Topology",
                    TOPOLOGY,
                    spec={
                        "levels": [{"nodeLabel": level} for level in LEVELS],  # R22
                    },
                ),
            ),
            Manifest(FLAVORS_FILE, object_(API, "ResourceFlavor", CPU_FLAVOR, spec={})),
            *(_gpu_flavor(q, cluster.cluster.gpuNodeTaints) for q in quotas),
            _cluster_queue(cluster, quotas),
            *_local_queues(cluster),
        ]


def _workload_priority_classes() -> list[Manifest]:
    return [  # R21
        Manifest("workloadpriorityclasses.yaml", object_(API, "WorkloadPriorityClass", name, value=value))
        for name, value in PRIORITY_TIERS
    ]


def flavor_taints(taints: Sequence[Taint]) -> list[dict[str, str]]:
    """R24, R39: the flavor's nodeTaints, as the cluster's GPU nodes carry them."""
    return [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect} for t in taints]


def _gpu_flavor(quota: ClassQuota, taints: Sequence[Taint]) -> Manifest:
    obj = object_(
        API,
        "ResourceFlavor",
        flavor_name(quota.gpu_class),
        spec={  # R24; R39: a cluster whose GPU nodes carry no taint sets gpuNodeTaints: []
            "nodeLabels": {GPU_CLASS: quota.gpu_class},
            **({"nodeTaints": flavor_taints(taints)} if taints else {}),
            "topologyName": TOPOLOGY,
        },
    )
    annotate(obj, {READY_SLOTS: str(quota.slots)})
    return Manifest(FLAVORS_FILE, obj)


def _cluster_queue(cluster: ResolvedCluster, quotas: Sequence[ClassQuota]) -> Manifest:
    namespaces = sorted(t.namespace for t in cluster.cluster.tenants)
    flavors = [_flavor_quota(CPU_FLAVOR, 0, 0)]
    flavors += [_flavor_quota(flavor_name(q.gpu_class), q.gpus, q.slots) for q in quotas]
    return Manifest(
        QUEUE_FILE,
        object_(
            API,
            "ClusterQueue",
            cluster.cluster.clusterQueue,
            spec={  # R25
                "namespaceSelector": {
                    "matchExpressions": [
                        {"key": NAMESPACE_LABEL, "operator": "In", "values": namespaces},
                    ]
                },
                "queueingStrategy": "BestEffortFIFO",
                "preemption": {"withinClusterQueue": "LowerPriority"},
                "resourceGroups": [{"coveredResources": list(COVERED), "flavors": flavors}],
            },
        ),
    )


def _flavor_quota(name: str, gpus: int, slots: int) -> dict[str, Any]:
    quota = {
        "cpu": CPU_QUOTA,
        "memory": MEMORY_QUOTA,
        "nvidia.com/gpu": canonical(gpus),
        SLOT: canonical(slots),
    }
    return {"name": name, "resources": [{"name": r, "nominalQuota": quota[r]} for r in COVERED]}


def _local_queues(cluster: ResolvedCluster) -> list[Manifest]:
    return [  # R28
        Manifest(
            "localqueues.yaml",
            object_(
                API,
                "LocalQueue",
                t.localQueue,
                t.namespace,
                spec={"clusterQueue": cluster.cluster.clusterQueue},
            ),
        )
        for t in cluster.cluster.tenants
    ]


def _check_flavor_limit(cluster: ResolvedCluster, quotas: Sequence[ClassQuota]) -> None:
    if len(quotas) + 1 <= MAX_FLAVORS:
        return
    first_over = quotas[MAX_FLAVORS - 1].gpu_class
    node = next((n for n in cluster.nodes if n.gpu_class == first_over), None)
    where = node.facts.at("name") if node else cluster.inventory.observed_at_pos
    raise InputError(
        [
            where.problem(
                "limits",
                f"cluster {cluster.name} has {len(quotas)} GPU classes: with "
                f"{CPU_FLAVOR} that is {len(quotas) + 1} flavors, over Kueue's limit of {MAX_FLAVORS} "
                f"per resource group (first class over it: {first_over})",
                "merge gpu classes in extraNodeLabelRules, or split the fleet into clusters",
            )
        ]
    )
