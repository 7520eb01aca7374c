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

from taugen.engines.admission.model import SimRun
from taugen.engines.admission.state import SimCluster
from taugen.engines.placement.tas import Assignment


def rank_hosts(cluster: SimCluster, assignment: Assignment) -> list[str]:
    """Node names; the assignment names hosts by their path (the hostname label comes last)."""
    leader = [cluster.by_path[p.path] for p in assignment.leader for _ in range(p.count)]
    return leader + [cluster.by_path[p.path] for p in assignment.domains for _ in range(p.count)]


def place_again(cluster: SimCluster, run: SimRun, ranks: Sequence[int], plan: dict[int, str]) -> int | None:
    """Place each rank (in order); returns the first rank that found no host, else None."""
    for rank in sorted(ranks):
        host = _choose(cluster, run, rank, plan)
        if host is None:
            return rank
        cluster.take(host, run.pod(rank))
        cluster.placed.setdefault(run.key, {})[rank] = host
    return None


def required_domain(
    cluster: SimCluster, run: SimRun, plan: dict[int, str], index: int = 0
) -> tuple[str, ...]:
    """The domain at the required level of the run's pod set `index` (K6; a Job's one) that
    holds its part of the plan; () when not required."""
    pod_set, mine = run.pod_sets()[index], _part(run, plan, index)
    if pod_set.mode != "required" or not mine or pod_set.level not in cluster.source.levels:
        return ()
    first = cluster.nodes[mine[min(mine)]].path
    return first[: cluster.source.levels.index(pod_set.level) + 1]


def _part(run: SimRun, plan: dict[int, str], index: int) -> dict[int, str]:
    """The ranks of pod set `index` in the plan (a single pod set: the whole plan)."""
    if not run.more:
        return plan
    first = run.first_rank(index)
    return {r: h for r, h in plan.items() if first <= r < first + run.pod_sets()[index].count}


def _choose(cluster: SimCluster, run: SimRun, rank: int, plan: dict[int, str]) -> str | None:
    index = run.pod_set_of(rank)
    room = Counter(_part(run, plan, index).values())
    room.subtract(_part(run, cluster.placed.get(run.key, {}), index).values())
    tolerations = cluster.tolerations(run.flavor)

    def usable(name: str) -> bool:  # as the kube-scheduler filters: room, taints, node affinity
        return cluster.fits(name, run.pod(rank)) and run.admits(cluster.nodes[name], tolerations)

    planned = plan.get(rank)
    if planned is not None and room[planned] > 0 and usable(planned):
        return planned
    domain = required_domain(cluster, run, plan, index)
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
