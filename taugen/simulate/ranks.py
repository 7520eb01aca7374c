"""Ranks and hosts (S4, S5).

S4: pod index i goes to the assignment's hosts in path order, each taking its count in turn.
S5: a rank to place again (an admitted run's rank with no running pod, or one lost to a
nodeDown) goes back to its planned host when that host is Ready, has room, and still has
room in the plan (the TopologyAssignment count minus the run's pods already there), and the
node suits the pod: its taints tolerated, the pod's node affinity met (as the kube-scheduler
filters a new pod). Else greedy: the hosts of the run's required domain in path order that
suit the pod, first those with room left in the plan (Kueue's ungater), then any free Ready
one — never a full or occupied host (seed 002, Kueue #9210). With none, the run is evicted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from taugen.simulate.model import SimRun
from taugen.simulate.state import Cluster
from taugen.simulate.tas import Assignment


def rank_hosts(cluster: Cluster, assignment: Assignment) -> list[str]:
    """Node names; the assignment names hosts by their path (the hostname label comes last)."""
    leader = [cluster.by_path[p.path] for p in assignment.leader for _ in range(p.count)]
    return leader + [cluster.by_path[p.path] for p in assignment.domains for _ in range(p.count)]


def place_again(cluster: Cluster, run: SimRun, ranks: Sequence[int], plan: dict[int, str]) -> int | None:
    """Place each rank (in order); returns the first rank that found no host, else None."""
    for rank in sorted(ranks):
        host = _choose(cluster, run, rank, plan)
        if host is None:
            return rank
        cluster.take(host, run.pod(rank))
        cluster.placed.setdefault(run.key, {})[rank] = host
    return None


def required_domain(cluster: Cluster, run: SimRun, plan: dict[int, str]) -> tuple[str, ...]:
    """The domain at the run's required level that holds its plan; () when not required."""
    if run.mode != "required" or not plan or run.level not in cluster.source.levels:
        return ()
    first = cluster.nodes[plan[min(plan)]].path
    return first[: cluster.source.levels.index(run.level) + 1]


def _choose(cluster: Cluster, run: SimRun, rank: int, plan: dict[int, str]) -> str | None:
    room = Counter(plan.values())
    room.subtract(cluster.placed.get(run.key, {}).values())
    tolerations = cluster.tolerations(run.flavor)

    def usable(name: str) -> bool:  # as the kube-scheduler filters: room, taints, node affinity
        return cluster.fits(name, run.pod(rank)) and run.admits(cluster.nodes[name], tolerations)

    planned = plan.get(rank)
    if planned is not None and room[planned] > 0 and usable(planned):
        return planned
    domain = required_domain(cluster, run, plan)
    candidates = [
        n.name
        for n in sorted(cluster.nodes.values(), key=lambda n: n.path)
        if n.flavor == run.flavor and n.path[: len(domain)] == domain and usable(n.name)
    ]
    in_plan = [c for c in candidates if room[c] > 0]
    mine = set(cluster.placed.get(run.key, {}).values())
    fresh = [c for c in candidates if c not in mine]
    chosen = in_plan or fresh
    return chosen[0] if chosen else None
