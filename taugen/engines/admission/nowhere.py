"""A pending run's topology reason (issue 34 item 6): Kueue's own words last, word for word (the
vectors and the real-cluster differential compare them), and before them, when no node of the
flavor holds one pod at all, the explanation preflight gives for the same cause."""

from __future__ import annotations

from taugen.engines.admission.model import SimFlavor, SimRun
from taugen.engines.admission.state import SimCluster
from taugen.engines.placement.nowhere import HostOffer, PodFilters, why_nowhere
from taugen.engines.placement.tree import Resources


def topology_reason(
    head: str, words: str, cluster: SimCluster, flavor: SimFlavor, run: SimRun, per_pod: Resources
) -> str:
    """`head`: what did not fit; `words`: Kueue's message for it."""
    nodes = [
        HostOffer(n.name, n.name not in cluster.down, n.allocatable, n.taints, n.labels)
        for n in cluster.nodes.values()
        if n.flavor == flavor.name
    ]
    filters = PodFilters((*run.tolerations, *flavor.tolerations), affinity=run.affinity)
    why = why_nowhere(per_pod, nodes, filters)
    return f"topology: {head}: {words}" if why is None else f"topology: {head}; {why}; Kueue: {words}"
