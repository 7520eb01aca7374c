"""How taugen's resolved labels reach the nodes (R29): one Protocol, and the one file layout."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol, TypeVar

from taugen.compile.manifest import Manifest
from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import SINGLETON
from taugen.resolve.labels import NETWORK_DOMAIN

NODES_DIR = "nodes"  # out/<cluster>/nodes/: every backend's files, read back by validate, drift, simulate
NO_CLASS_FILE = f"{NODES_DIR}/_no-gpu-class.yaml"
SINGLE_HOSTS = "_single-hosts"


class NodeLabelBackend(Protocol):
    name: str

    def manifests(self, nodes: Sequence[ResolvedNode]) -> list[Manifest]:
        """The objects that set each labelled node's labels (R29), each in its node_file group
        (shards.py then places the groups in shard folders)."""
        ...


def node_file(node: ResolvedNode) -> str:
    """The one place the grouping is decided: one group per gpu class and network domain
    (shards.py makes each group a shard folder, split past shardSize objects).

    Measured on 100,000 nodes (README, Performance): against one file per class, a change of
    one rack commits in half the time, `git diff` takes a twentieth, and the repository grows
    by a fifth as much, because Git stores whole changed files; the largest file drops from
    19 MB to 5 MB. Hosts in singleton network domains share one file per class, or there
    would be a file per host. `_` cannot start a label value, so no domain takes that name.
    """
    if not node.gpu_class:
        return NO_CLASS_FILE
    domain = node.labels.get(NETWORK_DOMAIN)
    if domain is None:  # not a topology member (R11 refuses such a GPU node; be safe anyway)
        return f"{NODES_DIR}/{node.gpu_class}.yaml"
    name = SINGLE_HOSTS if domain.startswith(SINGLETON) else file_name(domain)
    return f"{NODES_DIR}/{node.gpu_class}/{name}.yaml"


def file_name(domain: str) -> str:
    """A network domain's file name, distinct from every other domain's ignoring case.

    Label values are case-sensitive, but macOS and Windows check out IB-A.yaml and ib-a.yaml as
    one file (issue 17 item 9). A domain with an upper-case letter is written lower-cased, with
    8 hex digits of the sha256 of its value: the same name in every build, whatever other
    domains the inventory holds, so adding a domain never renames another's file.
    """
    if domain == domain.lower():
        return domain
    return f"{domain.lower()}-{hashlib.sha256(domain.encode()).hexdigest()[:8]}"


def labelled(nodes: Sequence[ResolvedNode]) -> list[ResolvedNode]:
    """R29: only a node that gets a label is written (R17 decides which labels it gets)."""
    return [n for n in nodes if n.labels]


Item = TypeVar("Item")


def packed(items: Sequence[Item], sizes: Sequence[int], budget: int) -> list[list[Item]]:
    """The items in order, in as few runs as keep each run's sizes to at most `budget` (an item
    larger than the budget alone in its run): G2's files of a shard, G5's rules and their names."""
    chunks: list[list[Item]] = [[]]
    used = 0
    for item, size in zip(items, sizes, strict=True):
        if chunks[-1] and used + size > budget:
            chunks.append([])
            used = 0
        chunks[-1].append(item)
        used += size
    return chunks
