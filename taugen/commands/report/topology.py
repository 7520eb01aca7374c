"""The domain tree of a cluster: its Topology's levels, top to bottom, then the hosts (R10, R16,
R42). §2's are site -> network domain -> accelerator domain; a cluster that declares levels has
those of `levels_of`, each read from the node's own label."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from taugen.commands.report.model import Host, OutsideHost, ReportDomain
from taugen.compile.manifest import MANAGED_BY
from taugen.resolve.cluster import ResolvedCluster, ResolvedNode
from taugen.resolve.labels import GPU_CLASS
from taugen.resolve.levels import CONTRACT_LEVELS, Levels

CONTRACT_PATH = CONTRACT_LEVELS.levels[:-1]  # §2's levels above the host, (name, label)


def path_levels(levels: Levels) -> tuple[tuple[str, str], ...]:
    """The levels the tree nests, (name, label), top to bottom: every level but the host's."""
    return levels.levels[:-1]


def hosts_of(cluster: ResolvedCluster, slots: bool) -> list[Host]:
    """Every node with a gpu-class in the Topology: only those carry the topology labels (R17);
    each offers a torchrun-host-slot when the tree advertises it (`slots`, G4). A node without a
    declared level's label is outside it (R42: `outside_of`)."""
    levels = cluster.levels
    return [
        _host(n, n.gpu_class, levels, slots)
        for n in cluster.nodes
        if n.gpu_class is not None and not levels.missing(n.facts.labels)
    ]


def outside_of(cluster: ResolvedCluster, slots: bool) -> list[OutsideHost]:
    """R42: the GPU nodes lacking a declared level's label, which Kueue's topology leaves out
    (their GPUs still count as quota); none when the cluster declares no levels."""
    levels = cluster.levels
    return [
        OutsideHost(_host(n, n.gpu_class, levels, slots), missing)
        for n in cluster.nodes
        if n.gpu_class is not None and (missing := levels.missing(n.facts.labels))
    ]


def _host(node: ResolvedNode, gpu_class: str, levels: Levels, slots: bool) -> Host:
    """A host with the labels taugen writes (R29) and, at declared levels, the node's own labels
    that name its domains (R42)."""
    labels = node.labels
    own = {label: node.facts.labels[label] for label in levels.own_labels if label in node.facts.labels}
    if own:
        labels = dict(sorted({**labels, **own}.items()))
    return Host(node.name, gpu_class, node.gpus, node.ready, labels, slot=slots)


def ghost(
    name: str, labels: Mapping[str, str], levels: Sequence[tuple[str, str]] = CONTRACT_PATH
) -> Host | None:
    """A node removed by a change, placed where its base labels put it; None when they do not
    (its base Node carries taugen's labels only, so never under a declared level, R42)."""
    if not all(key in labels for key in (*(label for _, label in levels), GPU_CLASS)):
        return None
    written = {k: v for k, v in sorted(labels.items()) if k != MANAGED_BY}  # the node's labels, as R29
    return Host(name, labels[GPU_CLASS], 0, False, written, removed=True)


def tree(
    hosts: Iterable[Host], levels: Sequence[tuple[str, str]] = CONTRACT_PATH
) -> tuple[ReportDomain, ...]:
    """The top level's domains, each with its domains below; siblings sorted by name (R16: a
    domain is scoped by its parent, so the same fabric name under two sites is two domains)."""
    return _domains(list(hosts), tuple(levels))


def _domains(hosts: list[Host], levels: tuple[tuple[str, str], ...]) -> tuple[ReportDomain, ...]:
    (level, label), below = levels[0], levels[1:]
    grouped: dict[str, list[Host]] = defaultdict(list)
    for host in hosts:
        grouped[host.labels[label]].append(host)
    return tuple(
        ReportDomain(level, value, _domains(members, below))
        if below
        else ReportDomain(level, value, hosts=tuple(sorted(members, key=lambda h: h.name)))
        for value, members in sorted(grouped.items())
    )
