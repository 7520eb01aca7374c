"""What a report shows, as plain values: the domain tree, the classes, the overlays."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from taugen.engines.admission.model import Status
from taugen.engines.changes.changes import ObjectAction

Mark = Literal["added", "removed", "moved", "changed"]


@dataclass(frozen=True)
class Host:
    name: str
    gpu_class: str
    gpus: int
    ready: bool
    labels: Mapping[str, str]  # what taugen writes on the Node (R29)
    removed: bool = False  # only in the diff's base: drawn where it was, counted nowhere
    slot: bool = True  # G4: the tree advertises a torchrun-host-slot on it


@dataclass(frozen=True)
class Stats:
    hosts: int
    gpus: int
    ready_slots: int  # R27: one torchrun-host-slot per Ready GPU node, where the tree advertises it (G4)
    not_ready: int
    by_class: Mapping[str, int]  # GPUs per class


@dataclass(frozen=True)
class ReportDomain:
    level: str  # the level's name: §2's (site, network-domain, accelerator-domain) or a declared one (R42)
    name: str
    children: tuple[ReportDomain, ...] = ()  # the next level down; none at the level above the hosts
    hosts: tuple[Host, ...] = ()  # the level above the hosts only, sorted by name

    def all_hosts(self) -> Iterator[Host]:
        yield from self.hosts
        for child in self.children:
            yield from child.all_hosts()

    @cached_property
    def stats(self) -> Stats:
        present = [h for h in self.all_hosts() if not h.removed]
        by_class: Counter[str] = Counter()
        for host in present:
            by_class[host.gpu_class] += host.gpus
        ready = sum(h.ready for h in present)
        slots = sum(h.ready and h.slot for h in present)
        return Stats(
            len(present), sum(by_class.values()), slots, len(present) - ready, dict(sorted(by_class.items()))
        )


@dataclass(frozen=True)
class ReportClassRow:
    gpu_class: str
    quota: int  # R26: the nominal GPU quota a build writes
    high_water: int | None  # the lock's high-water mark; None before the first build
    gpus: int  # allocatable GPUs in the inventory
    ready_slots: int  # R27
    nodes: int
    not_ready: int
    extra: tuple[tuple[str, int], ...] = ()  # R44: each extra resource's nominal quota, in order


@dataclass(frozen=True)
class OutsideHost:
    """A GPU node without a declared level's label: Kueue leaves it out of its topology (R42)."""

    host: Host
    missing: tuple[str, ...]  # the declared levels' labels it lacks


@dataclass(frozen=True)
class TenantRow:
    """§10: one tenant's GPUs of one class in a cohort cluster."""

    namespace: str
    gpu_class: str
    guaranteed: int  # T2: its own queue's nominal quota (0: a best-effort tenant)
    borrowable: int  # at most this many more from the cohort, within its borrowingLimit
    shared: int  # T3: the shared queue's quota of the class, which best-effort tenants share


@dataclass(frozen=True)
class FlavorOrder:
    """R47: the order every queue of a Kueue cluster holds its flavors in, and what made it."""

    flavors: tuple[str, ...]  # ResourceFlavor names, as each ClusterQueue's resource group lists them
    lists: tuple[tuple[str, tuple[str, ...]], ...]  # (profile, its gpu_class list in order)
    fungibility: tuple[tuple[str, Mapping[str, str]], ...]  # (tenant, its flavorFungibility as written)


@dataclass(frozen=True)
class GroupRow:
    """R51: one group's Cohort and one gpu-class."""

    group: str
    cohort: str
    parent: str  # the parent's Cohort
    tenants: tuple[str, ...]  # whose ClusterQueues join the group's Cohort
    gpu_class: str
    guaranteed: int | None  # the subtree's; None: the group guarantees none of the class
    own: int  # the Cohort's own nominal quota: what its members are not guaranteed
    borrowing_limit: int | None  # what the subtree may take from its parent; None: no limit
    lending_limit: int | None  # what it may lend up; None: all of it
    borrowable: int  # at most this many more from the rest of the tree, when it is idle


@dataclass(frozen=True)
class HostMark:
    mark: Mark
    detail: str  # the diff's headlines for the node, joined


@dataclass(frozen=True)
class ChangeRow:
    action: ObjectAction
    headline: str
    risks: tuple[str, ...]  # risk class ids


@dataclass(frozen=True)
class RiskGroup:
    id: str
    title: str
    explanation: str
    headlines: tuple[str, ...]


@dataclass(frozen=True)
class DiffView:
    base: str
    head: str
    plan: tuple[int, int, int, int]  # add, change, remove, risky
    risks: tuple[RiskGroup, ...]
    changes: tuple[ChangeRow, ...]
    marks: Mapping[str, HostMark]  # by node name


@dataclass(frozen=True)
class ReportRun:
    """One run of a simulation, as the page draws it (SPEC S6)."""

    name: str
    namespace: str
    status: Status  # S5
    reason: str  # why it is not admitted; "" when it is
    flavor: str
    ranks: tuple[str, ...]  # the host of rank i (S4); empty when pending or not topology-aware


@dataclass(frozen=True)
class SimulationView:
    source: str  # the WorkloadSet file, as given
    runs: tuple[ReportRun, ...]  # in admission order
    totals: tuple[tuple[str, int, int, int], ...] = ()  # per flavor: GPUs requested, admitted, free
    notes: tuple[str, ...] = ()  # e.g. "no preemption" (S2)


@dataclass(frozen=True)
class ClusterSection:
    name: str
    observed_at: str
    sites: tuple[ReportDomain, ...]
    classes: tuple[ReportClassRow, ...]
    cpu_nodes: int  # nodes without a gpu-class: outside the topology (R17)
    diff: DiffView | None = None
    simulation: SimulationView | None = None
    warnings: tuple[str, ...] = field(default=())
    tenants: tuple[TenantRow, ...] = ()  # §10: cohort clusters only
    # R42: the Topology's levels above the host, (name, label), when the cluster declares levels;
    # () for §2's three (site, network-domain, accelerator-domain), drawn as before
    levels: tuple[tuple[str, str], ...] = ()
    outside: tuple[OutsideHost, ...] = ()  # R42: GPU nodes Kueue's topology leaves out
    flavor_order: FlavorOrder | None = None  # R47: with a fallback list or a tenant's flavorFungibility
    groups: tuple[GroupRow, ...] = ()  # R51: with groups only
