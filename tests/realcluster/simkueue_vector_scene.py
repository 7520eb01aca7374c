"""A TAS vector's inputs as real objects (issue 31 item 5): the case's Nodes, one Topology, one
TAS ResourceFlavor, one ClusterQueue with a LocalQueue per namespace, the pods already on the
nodes, and its Workloads as Kueue's API states them (v1beta2 `PodSetTopologyRequest`), in a
`Scene` that `simkueue_cluster.play` puts on the cluster. The names go through the same
`Isolation` as the simulate differential's scenarios."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.realcluster.kube import Object
from tests.realcluster.simkueue_cluster import Scene
from tests.realcluster.simkueue_objects import Isolation, NodeSpec, isolate
from tests.realcluster.simkueue_workloads import KUEUE

PAUSE = "registry.k8s.io/pause:3.10"
QUEUE = "lq"
ROOM = "1P"  # the quota of a case that states none: room for every request (Kueue's tests call TAS alone)


@dataclass(frozen=True)
class PodSetSpec:
    name: str
    count: int
    requests: Mapping[str, str]  # quantities
    topology: Mapping[str, Any]  # the cases' form: required / preferred / unconstrained / implied, slices
    group: str | None = None  # podset-group-name (leader and workers)
    node_selector: Mapping[str, str] = field(default_factory=dict)
    tolerations: tuple[Mapping[str, Any], ...] = ()  # corev1 form
    affinity: tuple[tuple[Mapping[str, Any], ...], ...] = ()  # required nodeSelectorTerms' expressions


@dataclass(frozen=True)
class WorkloadSpec:
    key: str  # namespace/name
    pod_sets: tuple[PodSetSpec, ...]
    admitted: bool = False  # already holds its quota in the case: created (and awaited) first


@dataclass(frozen=True)
class PodSpec:
    """A pod already there, not Kueue's: its node (None: not scheduled) and phase."""

    name: str
    node: str | None
    phase: str | None
    requests: Mapping[str, str]


@dataclass(frozen=True)
class VectorSpec:
    topology: str
    levels: tuple[str, ...]
    flavor: str
    flavor_labels: Mapping[str, str]
    flavor_tolerations: tuple[Mapping[str, Any], ...]
    queue: str
    quota: Mapping[str, str] | None  # None: ROOM for every resource the workloads request
    nodes: tuple[NodeSpec, ...]
    pods: tuple[PodSpec, ...]
    workloads: tuple[WorkloadSpec, ...]  # in the case's order


def vector_scene(spec: VectorSpec, iso: Isolation) -> Scene:
    namespaces = sorted({w.key.split("/")[0] for w in spec.workloads})
    objects = [_topology(spec), _flavor(spec), _cluster_queue(spec)]
    objects += [_local_queue(spec, namespace) for namespace in namespaces]
    ordered = [w for w in spec.workloads if w.admitted] + [w for w in spec.workloads if not w.admitted]
    return Scene(
        iso,
        spec.nodes,
        [isolate(o, iso) for o in objects],
        [workload(w, iso) for w in ordered],
        [_pod(p, iso) for p in spec.pods],
    )


def _topology(spec: VectorSpec) -> Object:
    levels = [{"nodeLabel": level} for level in spec.levels]
    return {
        "apiVersion": KUEUE,
        "kind": "Topology",
        "metadata": {"name": spec.topology},
        "spec": {"levels": levels},
    }


def _flavor(spec: VectorSpec) -> Object:
    found: Object = {"nodeLabels": dict(spec.flavor_labels), "topologyName": spec.topology}
    if spec.flavor_tolerations:
        found["tolerations"] = [dict(t) for t in spec.flavor_tolerations]
    return {"apiVersion": KUEUE, "kind": "ResourceFlavor", "metadata": {"name": spec.flavor}, "spec": found}


def _cluster_queue(spec: VectorSpec) -> Object:
    requested = {r for w in spec.workloads for p in w.pod_sets for r in p.requests}
    quota = dict(spec.quota) if spec.quota is not None else dict.fromkeys(sorted(requested), ROOM)
    names = sorted(set(quota) | requested)
    resources = [{"name": r, "nominalQuota": quota.get(r, "0")} for r in names]
    group = {"coveredResources": names, "flavors": [{"name": spec.flavor, "resources": resources}]}
    return {
        "apiVersion": KUEUE,
        "kind": "ClusterQueue",
        "metadata": {"name": spec.queue},
        "spec": {"namespaceSelector": {}, "resourceGroups": [group]},
    }


def _local_queue(spec: VectorSpec, namespace: str) -> Object:
    meta = {"name": QUEUE, "namespace": namespace}
    return {"apiVersion": KUEUE, "kind": "LocalQueue", "metadata": meta, "spec": {"clusterQueue": spec.queue}}


def workload(spec: WorkloadSpec, iso: Isolation) -> Object:
    namespace, name = spec.key.split("/")
    meta = {"name": name, "namespace": iso.name(namespace)}
    pod_sets = [_pod_set(p) for p in spec.pod_sets]
    return {
        "apiVersion": KUEUE,
        "kind": "Workload",
        "metadata": meta,
        "spec": {"queueName": QUEUE, "podSets": pod_sets},
    }


def _pod_set(spec: PodSetSpec) -> Object:
    pod: Object = {
        "containers": [{"name": "c", "image": PAUSE, "resources": {"requests": dict(spec.requests)}}],
        "restartPolicy": "Never",
    }
    if spec.node_selector:
        pod["nodeSelector"] = dict(spec.node_selector)
    if spec.tolerations:
        pod["tolerations"] = [dict(t) for t in spec.tolerations]
    if spec.affinity:
        terms = [{"matchExpressions": [dict(e) for e in term]} for term in spec.affinity]
        required = {"nodeSelectorTerms": terms}
        pod["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}
    found: Object = {"name": spec.name, "count": spec.count, "template": {"spec": pod}}
    request = topology_request(spec.topology, spec.group)
    if request is not None:
        found["topologyRequest"] = request
    return found


def topology_request(topology: Mapping[str, Any], group: str | None) -> Object | None:
    """The cases' request as Kueue's API field: None for `implied` (no request at all)."""
    if topology.get("implied"):
        return None
    found: Object = {}
    for mode in ("required", "preferred"):
        if mode in topology:
            found[mode] = topology[mode]
    if "unconstrained" in topology:
        found["unconstrained"] = bool(topology["unconstrained"])
    if "sliceRequired" in topology:
        found["podSetSliceRequiredTopology"] = topology["sliceRequired"]
    if "sliceSize" in topology:
        found["podSetSliceSize"] = topology["sliceSize"]
    if topology.get("sliceLayers"):
        layers: Sequence[Mapping[str, Any]] = topology["sliceLayers"]
        found["podsetSliceRequiredTopologyConstraints"] = [
            {"topology": layer["level"], "size": layer["size"]} for layer in layers
        ]
    if group is not None:
        found["podSetGroupName"] = group
    return found


def _pod(spec: PodSpec, iso: Isolation) -> Object:
    container = {"name": "c", "image": PAUSE, "resources": {"requests": dict(spec.requests)}}
    body: Object = {"containers": [container]}
    if spec.node is not None:
        body["nodeName"] = iso.name(spec.node)
    pod: Object = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": spec.name, "namespace": iso.name("pods")},
        "spec": body,
    }
    if spec.phase is not None:
        pod["status"] = {"phase": spec.phase}
    return pod
