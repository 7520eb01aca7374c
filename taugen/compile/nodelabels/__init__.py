"""Node-label backends, listed explicitly (STYLE.md: never looked up through importlib).

A cluster picks one with `nodeLabels` in the project (default `node`).
"""

from __future__ import annotations

from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels.base import NodeLabelBackend
from taugen.compile.nodelabels.nfd import NfdBackend
from taugen.compile.nodelabels.node import NodeBackend
from taugen.compile.nodelabels.shards import sharded
from taugen.resolve.cluster import ResolvedCluster

NODE_LABEL_BACKENDS: dict[str, NodeLabelBackend] = {
    "node": NodeBackend(),
    "nfd": NfdBackend(),
}


def node_labels(cluster: ResolvedCluster) -> list[Manifest]:
    """R29: the objects that put each node's resolved labels on it, by the cluster's backend,
    in shards of at most the cluster's shardSize objects (G1)."""
    manifests = NODE_LABEL_BACKENDS[cluster.cluster.nodeLabels].manifests(cluster.nodes)
    return sharded(manifests, cluster.cluster.shardSize)
