"""Kueue's compile (SPEC §3): topology, flavors, the ClusterQueue and tenant LocalQueues; with a
guaranteed tenant, the cohort of §10 (kueue/cohort.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taugen.compile.common import NO_TIERS, TOPOLOGY
from taugen.compile.guarantee import NO_GUARANTEES, Guarantees
from taugen.compile.manifest import Manifest, annotate, object_
from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError
from taugen.models.platform import GpuTaint
from taugen.models.tiers import Tiers, class_name
from taugen.resolve.cluster import ResolvedCluster
from taugen.resolve.labels import GPU_CLASS
from taugen.schedulers.kueue.cohort import admits, cohort, group_cohort, local_queue, tenant_queue_spec
from taugen.schedulers.kueue.flavors import (
    API,
    COVERED,
    CPU_FLAVOR,
    CPU_QUOTA,
    MEMORY_QUOTA,
    covered,
    flavor_name,
    flavor_quota,
)

__all__ = ["API", "COVERED", "CPU_FLAVOR", "CPU_QUOTA", "MEMORY_QUOTA", "KueueCompile", "flavor_name"]

READY_SLOTS = "tau.azure.com/ready-torchrun-host-slots"
MAX_FLAVORS = 64  # Kueue: flavors per resource group
NAMESPACE_LABEL = "kubernetes.io/metadata.name"
FLAVORS_FILE = "resourceflavors.yaml"
QUEUE_FILE = "clusterqueue.yaml"

WAVES: Mapping[str, str] = {  # §4; T1: the Cohort before the queues that join it
    "WorkloadPriorityClass": "-2",
    "Topology": "-2",
    "ResourceFlavor": "-1",
    "Cohort": "-1",
    # M1: the manager's MultiKueue objects before the ClusterQueue that names the check
    "MultiKueueCluster": "-1",
    "MultiKueueConfig": "-1",
    "AdmissionCheck": "-1",
    "ClusterQueue": "0",
    "LocalQueue": "1",
}


class KueueCompile:
    """Kueue's part of compile (CompileBackend); taugen/schedulers/kueue/__init__.py adds the rest."""

    crd_groups: tuple[str, ...] = ("kueue.x-k8s.io",)
    catalog_namespace: str = "kueue-system"

    def wave(self, manifest: Manifest) -> str:
        return WAVES[manifest.kind]

    def compile(
        self,
        cluster: ResolvedCluster,
        quotas: Sequence[ClassQuota],
        guarantees: Guarantees = NO_GUARANTEES,
        tiers: Tiers = NO_TIERS,
    ) -> list[Manifest]:
        _check_flavor_limit(cluster, quotas)
        return [
            *_workload_priority_classes(tiers),
            Manifest(
                "topology.yaml",
                object_(
                    API,
                    "Topology",
                    TOPOLOGY,
                    spec={
                        "levels": [{"nodeLabel": level} for level in cluster.levels.labels],  # R22, R42
                    },
                ),
            ),
            Manifest(FLAVORS_FILE, object_(API, "ResourceFlavor", CPU_FLAVOR, spec={})),
            *(_gpu_flavor(q, cluster.cluster.gpuNodeTaints) for q in quotas),
            *_queues(cluster, quotas, guarantees),
            *_local_queues(cluster, guarantees),
        ]


def _workload_priority_classes(tiers: Tiers) -> list[Manifest]:
    """R21, R50: one per tier; a declared tier's description on it too (TauGrid's pair has none)."""
    return [
        Manifest(
            "workloadpriorityclasses.yaml",
            object_(
                API,
                "WorkloadPriorityClass",
                class_name(tier),
                value=value,
                **({"description": text} if (text := tiers.description(tier)) else {}),
            ),
        )
        for tier, value in tiers.values.items()
    ]


def flavor_taints(taints: Sequence[GpuTaint]) -> list[dict[str, str]]:
    """R24, R39: the flavor's nodeTaints, as the cluster's GPU nodes carry them."""
    return [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect} for t in taints]


def _gpu_flavor(quota: ClassQuota, taints: Sequence[GpuTaint]) -> Manifest:
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


def _queues(cluster: ResolvedCluster, quotas: Sequence[ClassQuota], guarantees: Guarantees) -> list[Manifest]:
    """R25's one ClusterQueue; with a guarantee, the cohort (T1), the shared queue (T3) and one
    queue per guaranteed tenant (T2)."""
    name = cluster.cluster.clusterQueue
    if not guarantees.cohort:
        namespaces = [t.namespace for t in cluster.cluster.tenants]
        return [_cluster_queue(name, _spec(namespaces, [(q, q.gpus, q.slots, q.extra) for q in quotas]))]
    shared = [t.namespace for t in cluster.cluster.tenants if guarantees.of(t.namespace) is None]
    parts = [(q, *guarantees.shared(q), guarantees.shared_extra(q)) for q in quotas]
    spec = {**_spec(shared, parts), "cohortName": name}
    tenants = [
        _cluster_queue(t.queue, tenant_queue_spec(t, _cohort_of(guarantees, t.group, name), quotas, spec))
        for t in guarantees.tenants
    ]
    groups = [group_cohort(g, quotas) for g in guarantees.groups]  # R51
    return [cohort(name), *groups, _cluster_queue(name, spec), *tenants]


def _cohort_of(guarantees: Guarantees, group: str | None, root: str) -> str:
    """T2, R51: a tenant's queue joins its group's Cohort, else the cluster's."""
    found = guarantees.group(group)
    return found.cohort if found is not None else root


def _spec(
    namespaces: Sequence[str], quotas: Sequence[tuple[ClassQuota, int, int, Mapping[str, int]]]
) -> dict[str, Any]:
    extra = list(quotas[0][0].extra) if quotas else []  # R44: every class lists the same resources
    flavors = [flavor_quota(CPU_FLAVOR, 0, 0, dict.fromkeys(extra, 0))]
    flavors += [flavor_quota(flavor_name(q.gpu_class), gpus, slots, own) for q, gpus, slots, own in quotas]
    return {  # R25
        "namespaceSelector": admits(namespaces),
        "queueingStrategy": "BestEffortFIFO",
        "preemption": {"withinClusterQueue": "LowerPriority"},
        "resourceGroups": [{"coveredResources": covered(extra), "flavors": flavors}],
    }


def _cluster_queue(name: str, spec: dict[str, Any]) -> Manifest:
    return Manifest(QUEUE_FILE, object_(API, "ClusterQueue", name, spec=spec))


def _local_queues(cluster: ResolvedCluster, guarantees: Guarantees) -> list[Manifest]:
    return [  # R28, T5
        local_queue(cluster, guarantees, t.namespace, t.localQueue) for t in cluster.cluster.tenants
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
