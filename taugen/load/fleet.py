"""M3: the clusters a `multikueue:` block names, checked at the project file's positions.

MultiKueue copies a workload into each worker in its own namespace with its own
`kueue.x-k8s.io/queue-name` and priority class: a worker without that namespace, LocalQueue or
WorkloadPriorityClass never admits it. So every worker has exactly the manager's tenants, each
with the same LocalQueue, and is a Kueue cluster (a KAI cluster has neither LocalQueues nor
WorkloadPriorityClasses). The ClusterQueue's name may differ: a dispatched workload names only
its LocalQueue.

A tenant with `guaranteed` (a cohort, §10) on the manager or a worker is refused: the manager's
one ClusterQueue admits against the fleet's summed quota, so it could hold GPUs a worker
guarantees to another tenant, and no rule of §11 says how guarantees add up across clusters.
"""

from __future__ import annotations

from collections.abc import Iterator

from taugen.core.errors import Problem
from taugen.core.suggest import closest
from taugen.load.document import Document
from taugen.models.multikueue import MultiKueue
from taugen.models.project import Cluster, Project

BLOCK = "multikueue"
SAME_TENANTS = "list the same tenants, each with the same localQueue, on the manager and every worker"


def check_fleet(doc: Document, project: Project) -> list[Problem]:
    fleet = project.multikueue
    if fleet is None:
        return []
    index = {c.name: i for i, c in enumerate(project.clusters)}
    problems = list(_names(doc, fleet, index))
    manager = index.get(fleet.manager)
    if manager is None:
        return problems
    problems += _cohort(doc, project.clusters[manager], manager, "manager")
    problems += _kueue(doc, project.clusters[manager], manager, "manager")
    for worker in fleet.workers:
        if worker in index and worker != fleet.manager:
            i = index[worker]
            problems += _kueue(doc, project.clusters[i], i, "worker")
            problems += _cohort(doc, project.clusters[i], i, "worker")
            problems += _tenants(doc, project.clusters[manager], project.clusters[i], i)
    return problems


def _names(doc: Document, fleet: MultiKueue, index: dict[str, int]) -> Iterator[Problem]:
    """The manager and every worker are clusters of the project; the manager is no worker."""
    if fleet.manager not in index:
        yield doc.at([BLOCK, "manager"]).problem("M3", *_unknown("manager", fleet.manager, index))
    for k, worker in enumerate(fleet.workers):
        where = doc.at([BLOCK, "workers", k])
        if worker == fleet.manager:
            yield where.problem(
                "M3",
                f"cluster {worker} is the manager and a worker",
                "remove it from workers: Kueue does not run a manager as one of its own workers",
            )
        elif worker not in index:
            yield where.problem("M3", *_unknown("worker", worker, index))
    for name in fleet.kubeconfigSecrets:
        if name not in fleet.workers:
            yield doc.at([BLOCK, "kubeconfigSecrets", name], key=True).problem(
                "M1",
                f"kubeconfigSecrets names {name}, which is not a worker",
                f"name a worker ({', '.join(fleet.workers)}), or remove the entry",
            )


def _unknown(role: str, name: str, index: dict[str, int]) -> tuple[str, str]:
    guess = closest(name, index)
    hint = f"did you mean {guess}?" if guess else f"name a cluster of the project: {', '.join(index)}"
    return f"{role} {name} is not a cluster of the project", hint


def _kueue(doc: Document, cluster: Cluster, i: int, role: str) -> Iterator[Problem]:
    if not cluster.capabilities.multikueue:
        yield doc.at(["clusters", i, "scheduler"]).problem(
            "M3",
            f"{role} {cluster.name} is scheduled by {cluster.scheduler}: it has no LocalQueues and no "
            "WorkloadPriorityClasses, so its priority classes and queues are not the fleet's",
            "MultiKueue dispatches between Kueue clusters: choose Kueue clusters as manager and workers",
        )


def _cohort(doc: Document, cluster: Cluster, i: int, role: str) -> Iterator[Problem]:
    for j, tenant in enumerate(cluster.tenants):
        if tenant.guaranteed:
            yield doc.at(["clusters", i, "tenants", j, "guaranteed"], key=True).problem(
                "M3",
                f"tenant {tenant.namespace} of {role} {cluster.name} has guaranteed GPUs (a cohort): "
                "the manager's one ClusterQueue admits against the fleet's summed quota and could "
                "hold GPUs a worker guarantees to another tenant",
                "remove guaranteed from the clusters of the fleet, or keep this cluster out of multikueue",
            )


def _tenants(doc: Document, manager: Cluster, worker: Cluster, i: int) -> Iterator[Problem]:
    """M3: the worker's tenants are the manager's, each with the manager's LocalQueue."""
    queues = {t.namespace: t.localQueue for t in manager.tenants}
    for j, tenant in enumerate(worker.tenants):
        if tenant.namespace not in queues:
            yield doc.at(["clusters", i, "tenants", j, "namespace"]).problem(
                "M3",
                f"tenant {tenant.namespace} of worker {worker.name} is not a tenant of the manager "
                f"{manager.name}",
                SAME_TENANTS,
            )
        elif tenant.localQueue != queues[tenant.namespace]:
            key = "localQueue" if "localQueue" in tenant.model_fields_set else "namespace"
            loc: list[str | int] = ["clusters", i, "tenants", j, key]
            yield doc.at(loc).problem(
                "M3",
                f"tenant {tenant.namespace}'s LocalQueue is {tenant.localQueue} on worker {worker.name}, "
                f"{queues[tenant.namespace]} on the manager {manager.name}",
                SAME_TENANTS,
            )
    missing = sorted(set(queues) - {t.namespace for t in worker.tenants})
    if missing:
        yield doc.at(["clusters", i, "tenants"], key=True).problem(
            "M3",
            f"worker {worker.name} has no tenant {', '.join(missing)}, "
            f"which the manager {manager.name} admits",
            SAME_TENANTS,
        )
