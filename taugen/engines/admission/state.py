"""The cluster as the simulation changes it: free capacity per node, quota used, placed ranks.

Capacity = allocatable - running pods - what this simulation placed (S3). A node that is not
Ready (or goes down) is not in its flavor's tree: Kueue drops it from TAS entirely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from taugen.engines.admission.admission import usage_of
from taugen.engines.admission.model import SimInput, SimNode, SimRun
from taugen.engines.admission.preemption import Holder
from taugen.engines.placement.tree import (
    PODS,
    DomainPath,
    FilterToleration,
    Resources,
    TasNode,
    TasTree,
    build_tree,
)
from taugen.schedulers.kueue.quota import QuotaTree


@dataclass
class SimCluster:
    source: SimInput
    nodes: dict[str, SimNode]
    free: dict[str, dict[str, int]]  # node -> free capacity
    down: set[str] = field(default_factory=set)
    quota: QuotaTree = field(default_factory=lambda: QuotaTree({}, {}))  # per ClusterQueue and cohort
    holders: dict[str, Holder] = field(default_factory=dict)  # run -> the quota it holds
    admissions: int = 0
    runs: dict[str, SimRun] = field(default_factory=dict)
    placed: dict[str, dict[int, str]] = field(default_factory=dict)  # run -> rank -> host
    trees: dict[str, TasTree] = field(default_factory=dict)
    by_path: dict[DomainPath, str] = field(default_factory=dict)  # leaf -> node name
    leaves: dict[str, dict[DomainPath, Resources]] = field(default_factory=dict)

    @classmethod
    def of(cls, source: SimInput) -> SimCluster:
        nodes = {n.name: n for n in sorted(source.nodes, key=lambda n: n.name)}
        free = {name: dict(n.allocatable) for name, n in nodes.items()}
        cluster = cls(source, nodes, free, {n for n, node in nodes.items() if not node.ready})
        cluster.quota = QuotaTree.of(source.cluster_queues(), source.cohorts)
        cluster.runs = {r.key: r for r in source.runs}
        cluster.by_path = {n.path: name for name, n in nodes.items()}
        for pod in sorted(source.running, key=lambda p: (p.node, p.run or "", p.rank or 0)):
            cluster.take(pod.node, pod.requests)
            if pod.run is not None and pod.rank is not None:
                cluster.placed.setdefault(pod.run, {})[pod.rank] = pod.node
        return cluster

    def source_run(self, key: str) -> SimRun:
        return self.runs[key]

    def hosts_of(self, key: str) -> list[str]:
        """The Ready hosts the run's pods hold (what preempting it frees)."""
        return [h for h in self.placed.get(key, {}).values() if h not in self.down]

    def tree(self, flavor: str) -> TasTree:
        if flavor not in self.trees:
            members = [
                TasNode(n.name, n.path, n.taints, frozenset(n.labels.items()))
                for n in self.nodes.values()
                if n.flavor == flavor and n.name not in self.down
            ]
            self.trees[flavor] = build_tree(self.source.topology, self.source.levels, members)
        return self.trees[flavor]

    def leaf_free(self, flavor: str) -> dict[DomainPath, Resources]:
        """Leaf -> the node's live free capacity (the dicts `take` changes in place)."""
        if flavor not in self.leaves:
            self.leaves[flavor] = {
                n.path: self.free[n.name] for n in self.nodes.values() if n.flavor == flavor
            }
        return self.leaves[flavor]

    def tolerations(self, flavor: str | None) -> tuple[FilterToleration, ...]:
        """The flavor's spec.tolerations (Kueue adds them to a pod's in TAS)."""
        return next((f.tolerations for f in self.source.flavors if f.name == flavor), ())

    def take(self, node: str, amount: Resources, sign: int = 1) -> None:
        """A pod's requests, and one `pods` where the node counts pods (Kueue does)."""
        free = self.free.setdefault(node, {})
        for resource, value in _with_pod(amount, free).items():
            free[resource] = free.get(resource, 0) - sign * value

    def fits(self, node: str, amount: Resources) -> bool:
        if node in self.down or node not in self.nodes:
            return False
        free = self.free[node]
        return all(v <= 0 or free.get(r, 0) >= v for r, v in _with_pod(amount, free).items())

    def holds(self, run: SimRun, hosts: Sequence[str]) -> bool:
        """Every pod of the run still fits its host (pod `i` on hosts[i]), each beside the
        earlier ones; nothing is taken."""
        taken: list[tuple[str, Resources]] = []
        try:
            for rank, host in enumerate(hosts):
                if not self.fits(host, run.pod(rank)):
                    return False
                self.take(host, run.pod(rank))
                taken.append((host, run.pod(rank)))
            return True
        finally:
            for host, pod in taken:
                self.take(host, pod, sign=-1)

    def go_down(self, node: str) -> None:
        self.down.add(node)
        self.trees.pop(self.nodes[node].flavor or "", None)

    def charge(self, run: SimRun, sign: int = 1) -> None:
        """The run's quota in its ClusterQueue (and what it borrows from the cohort)."""
        usage = usage_of(run)
        self.quota.add(run.queue, usage, sign)
        if sign < 0:
            self.holders.pop(run.key, None)
            return
        # Admitted in this simulation: newer than every admitted input, in admission order.
        given = run.plan is not None
        self.admissions += 0 if given else 1
        self.holders[run.key] = Holder(
            run.key,
            run.queue,
            run.priority,
            run.created,
            (run.admitted_at or run.created) if given else "",
            usage,
            0 if given else self.admissions,
        )


def _with_pod(amount: Resources, free: Resources) -> dict[str, int]:
    return {**amount, PODS: amount.get(PODS, 0) + 1} if PODS in free else dict(amount)
