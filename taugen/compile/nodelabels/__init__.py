"""Node-label backends, listed explicitly (STYLE.md: never looked up through importlib).

A cluster picks one with `nodeLabels` in the project (default `node`).
"""

from __future__ import annotations

from collections.abc import Sequence

from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels.base import NodeLabelBackend
from taugen.compile.nodelabels.nfd import NfdBackend
from taugen.compile.nodelabels.node import NodeBackend
from taugen.compile.nodelabels.shards import sharded
from taugen.resolve.cluster import ResolvedCluster, ResolvedNode

NODE_LABEL_BACKENDS: dict[str, NodeLabelBackend] = {
    "node": NodeBackend(),
    "nfd": NfdBackend(),
}


def node_labels(cluster: ResolvedCluster) -> list[Manifest]:
    """R29: the objects that put each node's resolved labels on it, by the cluster's backend,
    in shards of at most the cluster's shardSize objects (G1)."""
    return labels_of(cluster.cluster.nodeLabels, cluster.nodes, cluster.cluster.shardSize)


def labels_of(backend: str, nodes: Sequence[ResolvedNode], shard_size: int) -> list[Manifest]:
    """node_labels of these nodes (all of a cluster's, or whole groups of them: emit/split.py)."""
    return sharded(NODE_LABEL_BACKENDS[backend].manifests(nodes), shard_size)
