"""One scenario on the real cluster (issue 31 item 5): its Nodes, taugen's objects, then its
Workloads one at a time, each awaited until Kueue decides, then everything removed again while
Kueue runs (it lifts its own finalizers). Namespaces stay: no namespace controller runs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tests.realcluster.kube import Kube, Object, reaches, wait_for
from tests.realcluster.simkueue_objects import Isolation, NodeSpec, node_object, node_patch, node_status
from tests.realcluster.simkueue_workloads import Decision, decision, shape

MERGE = {"Content-Type": "application/merge-patch+json"}
DECIDE_SECONDS = 60.0
BYPASS_SECONDS = 3.0  # an equivalent of a failed workload gets no condition: pending once this passes
BYPASSED = "no condition: an equivalent workload failed (Kueue's SchedulingEquivalenceHashing)"
SETTLE_SECONDS = 120.0
NUDGE_SECONDS = 2.0
PODS_SECONDS = 2.0  # for Kueue's non-TAS usage controller to count pods already on nodes
RETRY_SECONDS = 10.0  # for Kueue's next cycle on a flavor left to try (see _decide)
TAS_NO_FIT = 'topology "'  # Kueue's words for a topology that cannot fit a pod set


@dataclass(frozen=True)
class Scene:
    """What one scenario puts on the cluster, in order."""

    iso: Isolation
    nodes: Sequence[NodeSpec]
    objects: Sequence[Object]  # isolated, in sync-wave order
    workloads: Sequence[Object]  # in taugen's admission order
    pods: Sequence[Object] = ()  # pods already on the Nodes (not Kueue's), each with its phase


@dataclass(frozen=True)
class Outcome:
    decisions: tuple[Decision, ...]  # each Workload's, as Kueue left it once the last was decided
    first: tuple[Decision, ...]  # each Workload's first decision (before the next was created)
    seconds: float


def play(kube: Kube, scene: Scene, alive: Callable[[], bool]) -> Outcome:
    began = time.monotonic()
    try:
        set_up(kube, scene, alive)
        first: list[Decision] = []
        for obj in scene.workloads:
            failed = {
                shape(w): d for w, d in zip(scene.workloads, first, strict=False) if d.status == "pending"
            }
            first.append(_decide(kube, obj, alive, failed.get(shape(obj)), _flavors(scene, obj) > 1))
        final = tuple(decision(kube.get(w)) or d for w, d in zip(scene.workloads, first, strict=True))
        return Outcome(final, tuple(first), time.monotonic() - began)
    finally:
        tear_down(kube, scene, alive)


def set_up(kube: Kube, scene: Scene, alive: Callable[[], bool]) -> None:
    for node in scene.nodes:
        add_node(kube, node, scene.iso)
    for namespace in sorted(
        {o["metadata"]["namespace"] for o in [*scene.objects, *scene.pods] if "namespace" in o["metadata"]}
    ):
        ensure_namespace(kube, namespace)
    for obj in scene.objects:
        Kube.expect(kube.apply(obj))
    for pod in scene.pods:
        add_pod(kube, pod)
    if scene.pods:  # no signal says Kueue's TAS cache counted them: a pause
        time.sleep(PODS_SECONDS)
    for queue in (o for o in scene.objects if o["kind"] == "ClusterQueue"):
        wait_for(f"{queue['metadata']['name']} Active", reaches(kube, queue, "Active"), 60, alive)


def add_node(kube: Kube, node: NodeSpec, iso: Isolation) -> None:
    """Registered as a kubelet would, its status written, then taugen's labels and the
    inventory's taints (the not-ready taint admission added goes)."""
    obj = node_object(node, iso)
    Kube.expect(kube.create(obj))
    path = kube.object_path(obj)
    Kube.expect(kube.http.patch(f"{path}/status", content=json.dumps(node_status(node)), headers=MERGE))
    Kube.expect(kube.http.patch(path, content=json.dumps(node_patch(node)), headers=MERGE))


def add_pod(kube: Kube, pod: Object) -> None:
    """A pod bound to its node (`spec.nodeName`, as kube-scheduler leaves it), its phase written
    through the status subresource as its kubelet would."""
    created = {k: v for k, v in pod.items() if k != "status"}
    Kube.expect(kube.create(created))
    if pod.get("status"):
        path = f"{kube.object_path(pod)}/status"
        Kube.expect(kube.http.patch(path, content=json.dumps({"status": pod["status"]}), headers=MERGE))


def ensure_namespace(kube: Kube, name: str) -> None:
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    if kube.get(namespace) is None:
        answer = kube.create(namespace)
        if answer.status_code != 409:  # another scenario made it first
            Kube.expect(answer)


def _decide(
    kube: Kube, workload: Object, alive: Callable[[], bool], equivalent: Decision | None, fallback: bool
) -> Decision:
    """Kueue's first decision; `equivalent`: an earlier workload of the same shape that Kueue
    found not to fit, so no condition may come (BYPASS_SECONDS, then pending as it is).

    `fallback`: its ClusterQueue offers more than one flavor. Kueue tries one TAS flavor per
    cycle: a topology that cannot fit it is written as pending, and the workload, with flavors
    left to try (`LastAssignment.PendingFlavors`), goes back to the heap at once
    (pkg/cache/queue/cluster_queue.go `requeueIfNotPresent`). That pending is a step, not the
    decision: RETRY_SECONDS for the next cycle's, then pending as it is."""
    Kube.expect(kube.create(workload))
    found: list[Decision] = []

    def decided() -> bool:
        got = decision(kube.get(workload))
        if got is not None:
            found.append(got)
        return got is not None

    def admitted() -> bool:
        return decided() and found[-1].status == "admitted"

    what = f"Kueue's decision on {workload['metadata']['name']}"
    if equivalent is None:
        wait_for(what, decided, DECIDE_SECONDS, alive)
        if fallback and found[-1].status == "pending" and TAS_NO_FIT in found[-1].message:
            try:
                wait_for(f"{what} on a later flavor", admitted, RETRY_SECONDS, alive)
            except AssertionError:
                if not alive():
                    raise
        return found[-1]
    try:
        wait_for(what, decided, BYPASS_SECONDS, alive)
    except AssertionError:
        if not alive():
            raise
        return Decision("pending", message=f"{BYPASSED}: {equivalent.message}", bypassed=True)
    return found[-1]


def _flavors(scene: Scene, workload: Object) -> int:
    """The most flavors one resource group of the workload's ClusterQueue lists."""
    queues = {
        (o["metadata"].get("namespace"), o["metadata"]["name"]): o
        for o in scene.objects
        if o["kind"] in ("LocalQueue", "ClusterQueue")
    }
    local = queues.get((workload["metadata"].get("namespace"), workload["spec"].get("queueName")))
    queue = queues.get((None, local["spec"]["clusterQueue"])) if local else None
    groups = queue["spec"].get("resourceGroups", []) if queue else []
    return max((len(g.get("flavors", [])) for g in groups), default=0)


def tear_down(kube: Kube, scene: Scene, alive: Callable[[], bool]) -> None:
    """In stages, each awaited: the Workloads and pods (a ClusterQueue keeps its finalizer while
    one holds quota; a pod goes at once, no kubelet runs), the queues, the flavors, then the
    Topology, priorities and Nodes (Kueue lifts each one's finalizer once nothing uses it)."""
    queues = [o for o in scene.objects if o["kind"] in ("LocalQueue", "ClusterQueue", "Cohort")]
    flavors = [o for o in scene.objects if o["kind"] == "ResourceFlavor"]
    rest = [o for o in scene.objects if o not in queues and o not in flavors]
    nodes = [node_object(n, scene.iso) for n in scene.nodes]
    for stage in ([*scene.workloads, *scene.pods], queues, flavors, rest + nodes):
        for obj in stage:
            now = {"gracePeriodSeconds": 0} if obj["kind"] == "Pod" else {}
            answer = kube.http.delete(kube.object_path(obj), params=now)
            if answer.status_code != 404:
                Kube.expect(answer)
        _await_gone(kube, stage, alive)


def _await_gone(kube: Kube, objects: Sequence[Object], alive: Callable[[], bool]) -> None:
    """Until every object is gone. One still terminating is nudged every NUDGE_SECONDS: Kueue
    v0.19.2's Topology reconciler may look at its TAS cache before that drops a deleted flavor,
    and then returns without a requeue, keeping its finalizer for good
    (pkg/controller/tas/topology_controller.go `Reconcile`, "topology is still in use")."""
    began = nudged = time.monotonic()
    while True:
        left = [found for found in (kube.get(o) for o in objects) if found is not None]
        if not left:
            return
        if not alive() or time.monotonic() - began > SETTLE_SECONDS:
            raise AssertionError(
                f"not removed after {SETTLE_SECONDS:.0f} s: {[_finalizers(o) for o in left]}"
            )
        time.sleep(0.05)
        if time.monotonic() - nudged > NUDGE_SECONDS:
            nudged = time.monotonic()
            for found in left:
                note = {"metadata": {"annotations": {"simkueue.taugen.test/nudged": str(nudged)}}}
                kube.http.patch(kube.object_path(found), content=json.dumps(note), headers=MERGE)


def _finalizers(obj: Object) -> str:
    meta = obj["metadata"]
    return f"{obj['kind']} {meta['name']} finalizers {meta.get('finalizers')}"
