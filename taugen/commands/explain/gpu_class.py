"""`taugen explain class`: the nodes, GPUs, Ready slots, quota and domains of one gpu class."""

from __future__ import annotations

from dataclasses import dataclass

from taugen.context.cluster import ClusterView
from taugen.core.errors import InputError, Problem
from taugen.core.suggest import CLOSE, closest
from taugen.resolve.counts import DomainCount, count_domains
from taugen.resolve.labels import ACCELERATOR_DOMAIN, NETWORK_DOMAIN
from taugen.schedulers.kueue.compile import flavor_name


@dataclass(frozen=True)
class ClassNode:
    name: str
    ready: bool
    gpus: int
    network_domain: str
    accelerator_domain: str


@dataclass(frozen=True)
class ClassExplanation:
    cluster: str
    gpu_class: str
    flavor: str
    nodes: tuple[ClassNode, ...]
    gpus: int  # summed allocatable in the inventory
    ready_slots: int  # R27
    quota: int  # R26: the GPU quota a build writes
    high_water: int | None  # R26: the lock's mark; None before the first build
    domains: tuple[DomainCount, ...]
    extra: tuple[tuple[str, int], ...] = ()  # R44: each extra resource's nominal quota, in order


def explain_class(view: ClusterView, gpu_class: str) -> ClassExplanation:
    quota = view.quota(gpu_class)
    if quota is None:
        raise InputError([_unknown(view, gpu_class)])
    members = [n for n in view.resolved.nodes if n.gpu_class == gpu_class]
    nodes = tuple(
        ClassNode(n.name, n.ready, n.gpus, n.labels[NETWORK_DOMAIN], n.labels[ACCELERATOR_DOMAIN])
        for n in members
    )
    return ClassExplanation(
        view.name,
        gpu_class,
        flavor_name(gpu_class),
        nodes,
        quota.observed_gpus,
        quota.slots,
        quota.gpus,
        view.high_water.get(gpu_class),
        tuple(count_domains(members, view.resolved.levels)),
        tuple(quota.extra.items()),
    )


def _unknown(view: ClusterView, gpu_class: str) -> Problem:
    """Issue 21: a near miss of one of the cluster's classes is named; else they all are."""
    known = [q.gpu_class for q in view.quotas]
    close = closest(gpu_class, known, CLOSE)
    hint = f"did you mean {close}?" if close else f"classes: {', '.join(known) or 'none'}"
    where = view.resolved.inventory.nodes_at
    return where.problem("usage", f"cluster {view.name} has no gpu-class {gpu_class}", hint)
