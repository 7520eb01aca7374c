"""KAI Scheduler's compile (SPEC §8, K1-K3): Topology with aliases, a parent Queue, a leaf per tenant.

No Kueue object (K3): KAI has no ResourceFlavor, so a gpu-class is chosen by the pod's
nodeSelector alone (K4), and a Queue's GPU quota covers every class at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from taugen.api.kai import KAI_TOPOLOGY_API, QUEUE_API
from taugen.compile.common import NO_TIERS, TOPOLOGY
from taugen.compile.guarantee import NO_GUARANTEES, Guarantees
from taugen.compile.manifest import Manifest, object_
from taugen.compile.quota import ClassQuota
from taugen.models.project import Cluster
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster
from taugen.resolve.labels import ACCELERATOR_DOMAIN, HOSTNAME, NETWORK_DOMAIN, SITE
from taugen.resolve.levels import Levels
from taugen.schedulers.kai.grove import cluster_topology_binding
from taugen.schedulers.kai.model import KaiCluster, KaiTenant

ALIASES: Mapping[str, str] = {  # K1
    SITE: "site",
    NETWORK_DOMAIN: "network-domain",
    ACCELERATOR_DOMAIN: "accelerator-domain",
    HOSTNAME: "hostname",
}
UNLIMITED = -1  # K2: KAI's docs disagree on defaults, so every field is written
QUEUES_FILE = "queues.yaml"
WAVES: Mapping[str, str] = {"Topology": "-2", "ClusterTopologyBinding": "-1"}  # K3
PARENT_WAVE, LEAF_WAVE = "-1", "0"  # K3


def leaf_queue(namespace: str) -> str:
    return f"taugrid-{namespace}"  # K2


class KaiCompile:
    """KAI's part of compile (CompileBackend); taugen/schedulers/kai/__init__.py adds the rest."""

    crd_groups: tuple[str, ...] = ("kai.scheduler", "scheduling.run.ai", "grove.io")
    catalog_namespace: str = "kai-scheduler"

    def compile(
        self,
        cluster: ResolvedCluster,
        quotas: Sequence[ClassQuota],
        guarantees: Guarantees = NO_GUARANTEES,
        tiers: Tiers = NO_TIERS,  # R50: KAI reads the pods' PriorityClasses, common to every tree
    ) -> list[Manifest]:
        parent = cluster.cluster.clusterQueue
        manifests = [
            _topology(cluster.levels),
            _queue(parent, None, gpus=sum(q.gpus for q in quotas), weight=1),
            *(_leaf(t, parent, quotas, guarantees) for t in _tenants(cluster)),
        ]
        if kai_of(cluster.cluster).grove:
            manifests.append(cluster_topology_binding(TOPOLOGY, cluster.levels))
        return manifests

    def wave(self, manifest: Manifest) -> str:
        if manifest.kind == "Queue":
            return LEAF_WAVE if manifest.obj["spec"].get("parentQueue") else PARENT_WAVE
        return WAVES[manifest.kind]


def kai_of(cluster: Cluster) -> KaiCluster:
    """A KAI cluster's entry, with its own fields: the registry picks this package by `scheduler: kai`."""
    if not isinstance(cluster, KaiCluster):
        raise TypeError(f"cluster {cluster.name} is not scheduled by KAI")
    return cluster


def _tenants(cluster: ResolvedCluster) -> list[KaiTenant]:
    return sorted(kai_of(cluster.cluster).tenants, key=lambda t: t.namespace)


def _leaf(tenant: KaiTenant, parent: str, quotas: Sequence[ClassQuota], guarantees: Guarantees) -> Manifest:
    """K2; T7: a guarantee's classes summed (KAI counts GPUs without classes), and its limit."""
    own = guarantees.of(tenant.namespace)
    if own is None:
        return _queue(leaf_queue(tenant.namespace), parent, tenant.gpuQuota, tenant.weight)
    gpus = sum(c.gpus for c in own.classes)
    limits = [own.of(q.gpu_class) for q in quotas]
    bounded = [c.borrowing_limit for c in limits if c is not None and c.borrowing_limit is not None]
    # a class without a borrowingLimit may be borrowed without limit, and KAI cannot tell classes apart
    limit = gpus + sum(bounded) if len(bounded) == len(quotas) else UNLIMITED
    return _queue(leaf_queue(tenant.namespace), parent, gpus, tenant.weight, limit)


def _topology(found: Levels) -> Manifest:
    """K1: §2's levels under their aliases; a declared level's alias is its name (R42)."""
    levels = [{"nodeLabel": label, "alias": ALIASES.get(label, name)} for name, label in found.levels]
    return Manifest("topology.yaml", object_(KAI_TOPOLOGY_API, "Topology", TOPOLOGY, spec={"levels": levels}))


def _queue(name: str, parent: str | None, gpus: int, weight: int, limit: int = UNLIMITED) -> Manifest:
    """K2: gpu quota as given; cpu and memory deserved and capped by nothing (-1)."""
    spec: dict[str, Any] = {} if parent is None else {"parentQueue": parent}
    spec["resources"] = {
        "gpu": _resource(gpus, weight, limit),
        "cpu": _resource(UNLIMITED, weight),
        "memory": _resource(UNLIMITED, weight),
    }
    return Manifest(QUEUES_FILE, object_(QUEUE_API, "Queue", name, spec=spec))


def _resource(quota: int, weight: int, limit: int = UNLIMITED) -> dict[str, int]:
    return {"quota": quota, "overQuotaWeight": weight, "limit": limit}
