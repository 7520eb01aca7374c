"""The domain tree of a cluster: site -> network domain -> accelerator domain -> host (R10, R16)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from taugen.commands.report.model import Host, ReportDomain
from taugen.compile.manifest import MANAGED_BY
from taugen.resolve.cluster import ResolvedCluster
from taugen.resolve.labels import ACCELERATOR_DOMAIN, GPU_CLASS, NETWORK_DOMAIN, SITE

_PATH = (SITE, NETWORK_DOMAIN, ACCELERATOR_DOMAIN)


def hosts_of(cluster: ResolvedCluster, slots: bool) -> list[Host]:
    """Every node with a gpu-class: only those carry the topology labels (R17); each offers a
    torchrun-host-slot when the tree advertises it (`slots`, G4)."""
    return [
        Host(n.name, n.gpu_class, n.gpus, n.ready, n.labels, slot=slots)
        for n in cluster.nodes
        if n.gpu_class is not None
    ]


def ghost(name: str, labels: Mapping[str, str]) -> Host | None:
    """A node removed by a change, placed where its base labels put it; None when they do not."""
    if not all(key in labels for key in (*_PATH, GPU_CLASS)):
        return None
    written = {k: v for k, v in sorted(labels.items()) if k != MANAGED_BY}  # the node's labels, as R29
    return Host(name, labels[GPU_CLASS], 0, False, written, removed=True)


def tree(hosts: Iterable[Host]) -> tuple[ReportDomain, ...]:
    """The sites, each with its domains; siblings sorted by name (R16: a network domain is
    scoped by its site, so the same fabric name under two sites is two domains)."""
    grouped: dict[str, dict[str, dict[str, list[Host]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for host in hosts:
        site, network, accelerator = (host.labels[key] for key in _PATH)
        grouped[site][network][accelerator].append(host)
    return tuple(
        ReportDomain("site", site, tuple(_network(name, racks) for name, racks in sorted(networks.items())))
        for site, networks in sorted(grouped.items())
    )


def _network(name: str, racks: Mapping[str, list[Host]]) -> ReportDomain:
    children = tuple(
        ReportDomain("accelerator-domain", rack, hosts=tuple(sorted(members, key=lambda h: h.name)))
        for rack, members in sorted(racks.items())
    )
    return ReportDomain("network-domain", name, children)
