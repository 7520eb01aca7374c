"""The simulator's input and output: plain values, no YAML, no project (S1, S6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from taugen.engines.placement.request import Mode, PodRequest, SliceLayer
from taugen.engines.placement.tree import DomainPath, FilterTaint, FilterToleration, Resources, untolerated
from taugen.models.node_filters import NodeRequirement, affinity_matches
from taugen.schedulers.kueue.quota_model import Quota, SimCohort, SimQueue

Status = Literal["admitted", "pending", "evicted", "preempted"]
NO_PREEMPTION = "no preemption is simulated: a pending run never displaces an admitted one (S2)"


@dataclass(frozen=True)
class SimNode:
    name: str
    ready: bool
    flavor: str | None  # the TAS flavor whose nodeLabels it matches; None: no TAS flavor
    path: DomainPath  # every level's value, the host's last
    allocatable: Resources
    taints: tuple[FilterTaint, ...] = ()  # the Node's spec.taints (none when the inventory does not say)
    labels: Mapping[str, str] = field(default_factory=dict)  # what node affinity is matched to


@dataclass(frozen=True)
class SimFlavor:
    name: str
    nominal: Resources  # the ClusterQueue's nominalQuota per covered resource
    tas: bool  # has a topologyName
    tolerations: tuple[FilterToleration, ...] = ()  # spec.tolerations: Kueue adds them to the pod's (TAS)
    taints: tuple[FilterTaint, ...] = ()  # spec.nodeTaints: the flavor assigner skips it when untolerated


@dataclass(frozen=True)
class SimPodSet:
    """A pod set after a run's first (a JobSet's replicatedJob, K6): its ranks follow the
    earlier pod sets' ranks, in order (S4)."""

    name: str
    count: int
    per_pod: Resources
    mode: Mode
    level: str | None
    slices: tuple[SliceLayer, ...] = ()
    gpus: int = 0
    flavor: str | None = None  # R47: the flavor Kueue assigned this pod set; None: the run's


@dataclass(frozen=True)
class SimRun:
    key: str  # namespace/name
    priority: int
    created: str  # RFC 3339 in UTC, so that text order is time order
    flavor: str | None  # None: no flavor in the queue for its class
    count: int
    per_pod: Resources
    mode: Mode
    level: str | None
    not_ready: str | None = None  # the whole reason it cannot be placed: profile (R30), workload, slot (G4)
    plan: Mapping[int, str] | None = None  # rank -> host of an already admitted run
    gpus: int = 0  # per pod, for the totals
    queue: str = ""  # its ClusterQueue (via its LocalQueue); "" with no `queues`: the only one
    admitted_at: str = ""  # RFC 3339 UTC: when an admitted run reserved quota ("": its created)
    slices: tuple[SliceLayer, ...] = ()  # policy.slice (S3)
    leader: Resources | None = None  # K5: pod 0 is a leader with its own requests
    tolerations: tuple[FilterToleration, ...] = ()  # the pod template's (R24: gpuNodeTaints)
    affinity: tuple[tuple[NodeRequirement, ...], ...] = ()  # required node affinity terms, ORed
    name: str = ""  # the first pod set's name, with `more`
    more: tuple[SimPodSet, ...] = ()  # K6: the pod sets after the first (count, per_pod, ...)
    # R47: the flavors a run with fallback classes may take, in the queue's order (`flavor` is the
    # one being tried or taken); (): only `flavor`
    flavors: tuple[str, ...] = ()

    def pod_sets(self) -> tuple[SimPodSet, ...]:
        """Every pod set in order, the run's own fields the first."""
        first = SimPodSet(self.name, self.count, self.per_pod, self.mode, self.level, self.slices, self.gpus)
        return (first, *self.more)

    def flavor_of(self, index: int) -> str | None:
        """R47: the flavor of pod set `index` (Kueue assigns one per pod set); the run's by default."""
        return (self.more[index - 1].flavor if index else None) or self.flavor

    def headed(self, head: SimPodSet, more: tuple[SimPodSet, ...], **fields: Any) -> SimRun:
        """The run with `head` as its first pod set and `more` after it (K6, R47)."""
        return replace(
            self,
            name=head.name,
            count=head.count,
            per_pod=head.per_pod,
            mode=head.mode,
            level=head.level,
            slices=head.slices,
            gpus=head.gpus,
            more=more,
            **fields,
        )

    def pod_set_flavors(self) -> tuple[str | None, ...]:
        return tuple(self.flavor_of(i) for i in range(len(self.more) + 1))

    def usage(self) -> dict[tuple[str, str], int]:
        """What the run asks of quota per (flavor, resource): each pod set on its own flavor."""
        found: dict[tuple[str, str], int] = {}
        first = replace(self, more=())
        parts = [
            (self.flavor, first.total()),
            *((self.flavor_of(i + 1), _times(p)) for i, p in enumerate(self.more)),
        ]
        for flavor, total in parts:
            for resource, value in total.items():
                key = (flavor or "", resource)
                found[key] = found.get(key, 0) + value
        return found

    def first_rank(self, index: int) -> int:
        return sum(p.count for p in self.pod_sets()[:index])

    def pod_set_of(self, rank: int) -> int:
        """The index of the pod set that holds pod `rank`."""
        for index, found in enumerate(self.pod_sets()):
            rank -= found.count
            if rank < 0:
                return index
        return len(self.more)

    @property
    def pods(self) -> int:
        """Every pod set's pods."""
        return self.count + sum(p.count for p in self.more)

    @property
    def gpu_total(self) -> int:
        return sum(p.gpus * p.count for p in self.pod_sets())

    def gpus_on(self, flavor: str) -> int:
        """R47: the GPUs of the pod sets on `flavor`."""
        flavors = self.pod_set_flavors()
        return sum(p.gpus * p.count for i, p in enumerate(self.pod_sets()) if flavors[i] == flavor)

    def pod_request(self, flavor: tuple[FilterToleration, ...] = ()) -> PodRequest:
        """What the placement core places: with a leader, one PodSet group (K5). Kueue's TAS
        checks taints against the pod's tolerations and then the flavor's (`flavor`)."""
        tolerations = (*self.tolerations, *flavor)
        grouped = self.leader is not None and self.count > 1
        return PodRequest(
            self.count - 1 if grouped else self.count,
            self.per_pod if grouped else self.pod(0),
            self.mode,
            self.level,
            tolerations,
            slices=self.slices,
            leader=self.leader if grouped else None,
            affinity=self.affinity,
        )

    def admits(self, node: SimNode, flavor: tuple[FilterToleration, ...] = ()) -> bool:
        """The node passes the run's filters: its taints are tolerated, its labels affine."""
        if untolerated(node.taints, (*self.tolerations, *flavor)) is not None:
            return False
        return not self.affinity or affinity_matches(self.affinity, node.labels)

    def pod(self, rank: int) -> Resources:
        """The requests of pod `rank`: the leader's for pod 0 when it has its own; with `more`,
        its pod set's."""
        if self.more:
            return self.pod_sets()[self.pod_set_of(rank)].per_pod
        return self.leader if rank == 0 and self.leader is not None else self.per_pod

    def total(self) -> dict[str, int]:
        """Every pod's requests summed: what the run asks of quota."""
        found = {r: v * self.count for r, v in self.per_pod.items()}
        for r, v in (self.leader or {}).items():
            found[r] = found.get(r, 0) + v
        for r, v in (self.per_pod if self.leader is not None else {}).items():
            found[r] -= v
        for extra in self.more:
            for r, v in extra.per_pod.items():
                found[r] = found.get(r, 0) + v * extra.count
        return found


def _times(pod_set: SimPodSet) -> dict[str, int]:
    return {r: v * pod_set.count for r, v in pod_set.per_pod.items()}


@dataclass(frozen=True)
class SimPod:
    node: str
    requests: Resources
    run: str | None = None  # run key
    rank: int | None = None


@dataclass(frozen=True)
class SimInput:
    topology: str
    levels: tuple[str, ...]
    flavors: tuple[SimFlavor, ...]
    nodes: tuple[SimNode, ...]
    runs: tuple[SimRun, ...]
    running: tuple[SimPod, ...] = ()
    down: tuple[str, ...] = ()  # nodeDown events, in order
    queues: tuple[SimQueue, ...] = ()  # () : one ClusterQueue "" with the flavors' nominal quota
    cohorts: tuple[SimCohort, ...] = ()
    fair_sharing: tuple[str, ...] | None = None  # R49: Kueue's preemptionStrategies when fair sharing is on

    @property
    def preempts(self) -> bool:
        """T8: preemption is simulated on a tree whose queues form a cohort; a lone
        ClusterQueue keeps S2 (no preemption), as before."""
        return any(q.cohort is not None for q in self.queues)

    def cluster_queues(self) -> tuple[SimQueue, ...]:
        if self.queues:
            return self.queues
        quotas = {(f.name, r): Quota(v) for f in self.flavors for r, v in f.nominal.items()}
        return (SimQueue("", quotas),)


@dataclass(frozen=True)
class Victim:
    key: str
    reason: str  # Kueue's: InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing


@dataclass(frozen=True)
class RunResult:
    key: str
    status: Status
    flavor: str | None
    reason: str = ""
    ranks: tuple[str | None, ...] = ()  # host of each pod index; None: not topology-aware
    replaced: tuple[int, ...] = ()  # ranks placed again (S5)
    victims: tuple[Victim, ...] = ()  # the runs this one preempted to be admitted (T8)
    pod_set_flavors: tuple[str | None, ...] = ()  # R47: each pod set's flavor, when not all the run's

    def hosts(self) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        for host in self.ranks:
            if host is not None:
                counts[host] = counts.get(host, 0) + 1
        return sorted(counts.items())


@dataclass(frozen=True)
class FlavorTotal:
    flavor: str
    requested: int  # GPUs asked for by every run of the flavor
    admitted: int
    free: int  # GPUs left free on Ready nodes after the simulation


@dataclass(frozen=True)
class SimResult:
    runs: tuple[RunResult, ...]  # in admission order
    totals: tuple[FlavorTotal, ...]
    notes: tuple[str, ...] = field(default=(NO_PREEMPTION,))
    preemption: bool = False  # T8: the tree is a cohort, preemption was simulated
    cycles: int = 0  # R52: the scheduling cycles that ran
    limit: int | None = None  # R52: --cycles N; None: until a cycle changes nothing
    cut_off: tuple[str, ...] = ()  # R52: runs still queued when the limit stopped the cycles
    fair_sharing: tuple[str, ...] | None = None  # R49: decided by fair sharing, with these strategies
