"""G6, Flux: per cluster, out/_flux/<cluster>/ holds the core's Kustomization and one per
node-label shard that `dependsOn` it, so the core's admission policy (G3) is in place before
any partial Node is applied. One entry Kustomization per cluster syncs the folder.

Per-cluster Flux (each cluster's own Flux syncs its folder) or a hub (`hub: true`: one Flux
syncs every folder and applies each Kustomization through the Secret `<cluster>-kubeconfig`).

A MultiKueue manager (§11) must find its workers' LocalQueues before its admission check sends
them work. In a hub, its core `dependsOn` every worker's core, so Flux applies and health-checks
the workers' queues first. Per-cluster Flux cannot say so: a Kustomization depends only on
Kustomizations of its own cluster's Flux. There the manager's core checks the health of its
AdmissionCheck and MultiKueueClusters instead (Ready once it reaches every worker), and a
workload dispatched before a worker's queue exists waits in that worker until it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taugen.compile.gitops.layout import Deployed, Part, labels
from taugen.compile.manifest import Manifest, object_
from taugen.models.gitops import Flux

API = "kustomize.toolkit.fluxcd.io/v1"
CORE_FILE, NODES_FILE = "core.yaml", "nodes.yaml"
_ACTIVE = "has(status.conditions) && status.conditions.exists(c, c.type == 'Active' && {})"
# Flux (fluxcd/pkg runtime/cel, RFC 0009) gives an object's top-level fields as variables and
# tries inProgress, failed, current in turn; none true is InProgress. Kueue reports a queue's
# state in its Active condition, whose observedGeneration says which spec it judged. An object
# with no status has no `status` variable: every expression errors and the check is not Ready.
QUEUE_HEALTH = {
    "inProgress": _ACTIVE.format(
        "has(c.observedGeneration) && has(metadata.generation) && c.observedGeneration < metadata.generation"
    ),
    "failed": _ACTIVE.format("c.status == 'False'"),
    "current": _ACTIVE.format("c.status == 'True'"),
}
QUEUE_KINDS = ("ClusterQueue", "LocalQueue")
# M1: Kueue sets Active on the check once its config's clusters exist, and on a MultiKueueCluster
# once its kubeconfig Secret connects: the manager's core is Ready only when it reaches them.
MANAGER_KINDS = ("AdmissionCheck", "MultiKueueCluster")


def kustomizations(
    flux: Flux, cluster: Deployed, manager: bool = False, workers: Sequence[Part] = ()
) -> list[Manifest]:
    """`manager`: the MultiKueue manager's; `workers`: the cores it waits for, in a hub (M1)."""
    depends = [_dependency(d.name, d.namespace) for d in flux.dependsOn]
    core = _kustomization(flux, cluster.core, depends + [_dependency(w.name, None) for w in workers])
    if cluster.kueue:
        kinds = QUEUE_KINDS + (MANAGER_KINDS if manager else ())
        core["spec"]["healthCheckExprs"] = [
            {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": kind, **QUEUE_HEALTH} for kind in kinds
        ]
    after_core = [_dependency(cluster.core.name, None)]
    return [
        Manifest(CORE_FILE, core),
        *(Manifest(NODES_FILE, _kustomization(flux, shard, after_core)) for shard in cluster.shards),
    ]


def _kustomization(flux: Flux, part: Part, depends: list[dict[str, str]]) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "interval": "10m",
        "retryInterval": "2m",
        "timeout": "5m",
        "sourceRef": flux.sourceRef.model_dump(exclude_none=True),
        "path": f"./{part.path}",
        "prune": True,  # partial Nodes carry kustomize.toolkit.fluxcd.io/prune: disabled (§4)
        "wait": True,
    }
    if depends:
        spec["dependsOn"] = depends
    if flux.hub:
        spec["kubeConfig"] = {"secretRef": {"name": f"{part.cluster}-kubeconfig"}}
    obj = object_(API, "Kustomization", part.name, flux.namespace, spec=spec)
    obj["metadata"]["labels"] = labels()
    return obj


def _dependency(name: str, namespace: str | None) -> dict[str, str]:
    return {"name": name} | ({"namespace": namespace} if namespace else {})
