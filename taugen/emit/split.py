"""A large cluster's partial Nodes built by two processes (issue 36, core/forked.py).

The node-label files are most of a 100,000-node build: building the objects, sharding them,
decorating, ordering and writing their text took 1.7 s of its 5.5 s in one process, and 1.1 s
in two. A file's objects come from its group alone (base.node_file: a gpu class and network
domain), so the groups are dealt to two halves of about as many Nodes each, and each half is
built as one process builds it: the same objects and the same bytes, only sooner.
`tests/unit/test_split.py` holds the two ways' trees byte for byte equal.

Anything else is built in one process, as before: another nodeLabels backend, a fleet too small
for a fork to pay, no second core, a child that failed, or groups of both halves that would
share a shard folder (one process then raises the ShardError, with its own message).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from taugen.compile.backend import CompileBackend
from taugen.compile.decorate import decorate
from taugen.compile.nodelabels import labels_of
from taugen.compile.nodelabels.base import labelled, node_file
from taugen.compile.nodelabels.shards import ShardError
from taugen.core.forked import in_two
from taugen.emit.canonical import dump, emit_objects
from taugen.resolve.cluster import ResolvedCluster, ResolvedNode

SPLIT_FROM = 20_000  # labelled nodes: below, the fork and the pipe cost about what half saves
BACKEND = "node"


@dataclass(frozen=True)
class NodeFiles:
    """Node-label files of one cluster folder: their objects in file order, and their bytes."""

    objects: dict[str, list[dict[str, Any]]]
    texts: dict[str, bytes]


def split_node_files(cluster: ResolvedCluster, backend: CompileBackend) -> NodeFiles | None:
    """The cluster's node-label files, half of them built by a forked child; None when they are
    to be built in one process with the rest of the cluster's objects (see above)."""
    if cluster.cluster.nodeLabels != BACKEND:
        return None
    nodes = labelled(cluster.nodes)
    if len(nodes) < SPLIT_FROM:
        return None
    first, second = _halves(nodes)
    both = in_two(partial(_built, shard_size=cluster.cluster.shardSize, backend=backend), first, second)
    one, other = both if both is not None else (None, None)
    if one is None or other is None or _folders(one) & _folders(other):
        return None
    objects = dict(sorted({**one.objects, **other.objects}.items()))
    return NodeFiles(objects, dict(sorted({**one.texts, **other.texts}.items())))


def _halves(nodes: list[ResolvedNode]) -> tuple[list[ResolvedNode], list[ResolvedNode]]:
    """The nodes in two halves of whole groups, the largest group first to the emptier half."""
    groups: dict[str, list[ResolvedNode]] = {}
    for node in nodes:
        groups.setdefault(node_file(node), []).append(node)
    halves: tuple[list[ResolvedNode], list[ResolvedNode]] = ([], [])
    for name in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        min(halves, key=len).extend(groups[name])
    return halves


def _built(nodes: list[ResolvedNode], shard_size: int, backend: CompileBackend) -> NodeFiles | None:
    """The files of these nodes' groups, as one process builds them; None for a ShardError."""
    try:
        manifests = labels_of(BACKEND, nodes, shard_size)
    except ShardError:
        return None
    objects = emit_objects(decorate(manifests, backend))
    return NodeFiles(objects, {name: dump(docs) for name, docs in objects.items()})


def _folders(files: NodeFiles) -> set[str]:
    return {name.rpartition("/")[0] for name in files.objects}
