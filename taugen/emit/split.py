"""A large cluster's partial Nodes built by two processes (issue 36, core/forked.py).

The node-label files are most of a 100,000-node build: building the objects, sharding them,
decorating, ordering and writing their text took 1.7 s of its 5.5 s in one process, and 1.1 s
in two. A file's objects come from its group alone (base.node_file: a gpu class and network
domain), so the groups are dealt to two halves of about as many Nodes each, and each half is
built as one process builds it: the same objects and the same bytes, only sooner.
`tests/unit/test_split.py` holds the two ways' trees byte for byte equal. The child sends
back its files' bytes and, in place of their objects, what the gate needs of its Nodes
(NodeFiles.kept); the gate builds them here only to validate them one by one. This process
summarizes its own half the same way while the child is at work, and the gate reads the two
summaries merged, not the objects (issue 36: 0.1 s of the gate's, and its look at each file's
size and at each name, moved into the two processes). Its own objects are then let go too: a
gate that must validate one by one builds both halves here again.

Anything else is built in one process, as before: another nodeLabels backend, a fleet too small
for a fork to pay, no second core, a child that failed, or groups of both halves that would
share a shard folder (one process then raises the ShardError, with its own message).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, Protocol, Self, TypeVar

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
Objects = dict[str, list[dict[str, Any]]]  # file -> objects in file order


class Mergeable(Protocol):
    def merged(self, other: Self) -> Self:
        """What this summary and `other` say together, as one summary of both halves' files."""
        ...


Summary = TypeVar("Summary", bound=Mergeable)
Summarize = Callable[[Objects, Mapping[str, bytes]], Summary | None]  # files' objects and bytes


@dataclass(frozen=True)
class Kept(Generic[Summary]):
    """Files whose objects are not among the cluster's: those the child kept (issue 36: pickling
    50,000 Nodes cost it about 0.3 s), or both halves' when both were summarized (neither process
    keeps them then). Their names, the summary in their objects' place (what the gate needs of
    their Nodes), and how to have their objects here, for a gate that must validate them one by
    one."""

    names: tuple[str, ...]
    summary: Summary
    objects: Callable[[], Objects] = field(compare=False)


@dataclass(frozen=True)
class NodeFiles(Generic[Summary]):
    """Node-label files of one cluster folder: the bytes of every file, and the objects of those
    not `kept` by the child."""

    objects: Objects
    texts: dict[str, bytes]
    kept: Kept[Summary] | None = None


def split_node_files(
    cluster: ResolvedCluster,
    backend: CompileBackend,
    summarize: Summarize[Summary] | None = None,
) -> NodeFiles[Summary] | None:
    """The cluster's node-label files, half of them built by a forked child; None when they are
    to be built in one process with the rest of the cluster's objects (see above). `summarize`
    (the gate's, validate/built_nodes.summarized) gives what the child sends in place of its
    files' objects, or None: then it sends them."""
    if cluster.cluster.nodeLabels != BACKEND:
        return None
    nodes = labelled(cluster.nodes)
    if len(nodes) < SPLIT_FROM:
        return None
    first, second = _halves(nodes)
    shard_size = cluster.cluster.shardSize
    work = partial(_built, shard_size=shard_size, backend=backend, summarize=summarize)
    both = in_two(work, first, second)
    (one, mine), (other, theirs) = both if both is not None else ((None, None), (None, None))
    if one is None or other is None or _folders(one) & _folders(other):
        return None
    texts = dict(sorted({**one.texts, **other.texts}.items()))
    mine_here = partial(_objects, first, shard_size, backend)
    theirs_here = partial(_objects, second, shard_size, backend)
    if theirs is None:  # the child sent its objects
        ours = one.objects if mine is None else mine_here()
        return NodeFiles(dict(sorted({**ours, **other.objects}.items())), texts)
    if mine is None:
        return NodeFiles(one.objects, texts, Kept(tuple(other.texts), theirs, theirs_here))
    both_here = partial(_both, mine_here, theirs_here)
    return NodeFiles({}, texts, Kept(tuple(texts), mine.merged(theirs), both_here))


def _halves(nodes: list[ResolvedNode]) -> tuple[list[ResolvedNode], list[ResolvedNode]]:
    """The nodes in two halves of whole groups, the largest group first to the emptier half."""
    groups: dict[str, list[ResolvedNode]] = {}
    for node in nodes:
        groups.setdefault(node_file(node), []).append(node)
    halves: tuple[list[ResolvedNode], list[ResolvedNode]] = ([], [])
    for name in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        min(halves, key=len).extend(groups[name])
    return halves


def _built(
    nodes: list[ResolvedNode],
    shard_size: int,
    backend: CompileBackend,
    summarize: Summarize[Summary] | None,
) -> tuple[NodeFiles[Summary] | None, Summary | None]:
    """The files of these nodes' groups, as one process builds them (None for a ShardError),
    and the summary of their objects when a summarize is given and can make one. The objects are
    then let go, in either process: the summary stands for them (issue 36: this process's, held
    through the gate, raised a 100,000-node build's peak by 20 MiB and `--check`'s by 45)."""
    try:
        objects = _objects(nodes, shard_size, backend)
    except ShardError:
        return None, None
    texts = {name: dump(docs) for name, docs in objects.items()}
    summary = None if summarize is None else summarize(objects, texts)
    return NodeFiles(objects if summary is None else {}, texts), summary


def _objects(nodes: list[ResolvedNode], shard_size: int, backend: CompileBackend) -> Objects:
    return emit_objects(decorate(labels_of(BACKEND, nodes, shard_size), backend))


def _both(mine: Callable[[], Objects], theirs: Callable[[], Objects]) -> Objects:
    """Both halves' objects, built here again."""
    return dict(sorted({**mine(), **theirs()}.items()))


def _folders(files: NodeFiles[Any]) -> set[str]:
    return {name.rpartition("/")[0] for name in files.texts}
