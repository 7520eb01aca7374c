"""A workload of several pod sets (K6: a JobSet run), placed as Kueue v0.19.2 places one
(FindTopologyAssignmentsForFlavor): the pod sets in order, each on the capacity the earlier
ones of the same workload leave (its assumed usage), all or nothing; a pod set of count 0 gets
no TopologyAssignment. The first that does not fit fails the workload, named in the reason as
Kueue's event names it (`couldn't assign flavors to pod set <name>: <TAS message>`)."""

from __future__ import annotations

from taugen.engines.admission.model import SimFlavor, SimPodSet, SimRun
from taugen.engines.admission.nowhere import topology_reason
from taugen.engines.admission.ranks import rank_hosts
from taugen.engines.admission.state import SimCluster
from taugen.engines.placement.request import PodRequest
from taugen.engines.placement.tas import NoFit, find_assignment


def place_pod_sets(cluster: SimCluster, flavor: SimFlavor, run: SimRun) -> list[str] | str:
    """Each pod's host, in rank order; or the reason the run stays pending. R47: each pod set on
    the flavor Kueue assigned it (`flavor`, the run's, unless it has its own)."""
    hosts: list[str] = []
    flavors = {f.name: f for f in cluster.source.flavors}
    try:
        for index, pod_set in enumerate(run.pod_sets()):
            if pod_set.count == 0:
                continue
            flavor = flavors.get(run.flavor_of(index) or "", flavor)
            request = PodRequest(
                pod_set.count,
                pod_set.per_pod,
                pod_set.mode,
                pod_set.level,
                (*run.tolerations, *flavor.tolerations),  # the pod's, then the flavor's (Kueue's TAS)
                slices=pod_set.slices,
                affinity=run.affinity,
            )
            found = find_assignment(cluster.tree(flavor.name), request, cluster.leaf_free(flavor.name))
            if isinstance(found, NoFit):
                return topology_reason(no_fit(pod_set), found.reason, cluster, flavor, run, pod_set.per_pod)
            placed = rank_hosts(cluster, found)
            for host in placed:  # assumed usage: the next pod sets see it taken
                cluster.take(host, pod_set.per_pod)
            hosts += placed
        return hosts
    finally:
        for rank, host in enumerate(hosts):
            cluster.take(host, run.pod(rank), sign=-1)


def no_fit(pod_set: SimPodSet) -> str:
    where = "set of hosts" if pod_set.mode == "unconstrained" else f"{pod_set.level} domain"
    return f"pod set {pod_set.name}: no {where} holds {pod_set.count} pods"
