"""Objects every backend's tree holds: PriorityClasses (R20) and partial Nodes (R29)."""

from __future__ import annotations

from taugen.compile.manifest import Manifest, annotate, label, object_
from taugen.resolve.cluster import ResolvedCluster, ResolvedNode

PRIORITY_TIERS = (("taugrid-default", 1000), ("taugrid-priority", 1200))  # R20, R21
NODES_DIR = "nodes"
NO_CLASS_FILE = f"{NODES_DIR}/_no-gpu-class.yaml"

# §4: a GitOps tool must never delete a Node because a line left Git.
NODE_ANNOTATIONS = {
    "argocd.argoproj.io/sync-options": "ServerSideApply=true,Validate=false,Prune=false,Delete=false",
    "kustomize.toolkit.fluxcd.io/ssa": "Merge",
    "kustomize.toolkit.fluxcd.io/prune": "disabled",
}


def priority_classes() -> list[Manifest]:
    return [
        Manifest(
            "priorityclasses.yaml",
            object_(
                "scheduling.k8s.io/v1",
                "PriorityClass",
                name,
                value=value,
                globalDefault=False,
                preemptionPolicy="PreemptLowerPriority",
                description=f"taugen tier {name.removeprefix('taugrid-')}: workloads of this tier",
            ),
        )
        for name, value in PRIORITY_TIERS
    ]


def node_labels(cluster: ResolvedCluster) -> list[Manifest]:
    """R29: a partial Node per labelled node, one file per gpu class (a reviewable diff)."""
    return [_node(n) for n in cluster.nodes if n.labels]


def _node(node: ResolvedNode) -> Manifest:
    obj = object_("v1", "Node", node.name)
    label(obj, dict(node.labels))
    annotate(obj, dict(NODE_ANNOTATIONS))
    file = f"{NODES_DIR}/{node.gpu_class}.yaml" if node.gpu_class else NO_CLASS_FILE
    return Manifest(file, obj)
