"""nodeLabels: node (the default) — a partial v1 Node per labelled node, server-side applied (R29)."""

from __future__ import annotations

from collections.abc import Sequence

from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels.base import labelled, node_file
from taugen.resolve.cluster import ResolvedNode

# §4: a GitOps tool must never delete a Node because a line left Git.
NODE_ANNOTATIONS = {
    "argocd.argoproj.io/sync-options": "ServerSideApply=true,Validate=false,Prune=false,Delete=false",
    "kustomize.toolkit.fluxcd.io/ssa": "Merge",
    "kustomize.toolkit.fluxcd.io/prune": "disabled",
}


class NodeBackend:
    name = "node"

    def manifests(self, nodes: Sequence[ResolvedNode]) -> list[Manifest]:
        return [_node(n) for n in labelled(nodes)]


def _node(node: ResolvedNode) -> Manifest:
    # what object_, label and annotate build, in one literal: 100,000 calls of each (issue 36)
    meta = {"name": node.name, "labels": dict(node.labels), "annotations": dict(NODE_ANNOTATIONS)}
    return Manifest(node_file(node), {"apiVersion": "v1", "kind": "Node", "metadata": meta})
