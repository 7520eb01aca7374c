"""The node filters a run's pods apply (issue 24), as render writes them: the tolerations of
the cluster's gpuNodeTaints (R24, R39) and `policy.node_affinity`. Preflight counts only the
nodes they admit; simulate hands them to the placement core (Kueue's TAS filters the same)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from taugen.engines.runs.render import gpu_tolerations
from taugen.engines.runs.resolution import RunContext
from taugen.models.node_filters import (
    FilterTaint,
    FilterToleration,
    NodeRequirement,
    affinity_matches,
    untolerated,
)
from taugen.resolve.cluster import ResolvedNode
from taugen.resolve.domains import hostname_of
from taugen.resolve.labels import HOSTNAME


def toleration(key: str, operator: str, value: str, effect: str | None) -> FilterToleration:
    """A corev1.Toleration: operator Exists tolerates every value (and with no key, every key)."""
    return FilterToleration(key, None if operator == "Exists" else value, effect or None)


def run_tolerations(context: RunContext) -> tuple[FilterToleration, ...]:
    """Exactly the tolerations render writes on the pod: a GPU run's, of gpuNodeTaints."""
    if context.policy.gpu_class is None:
        return ()
    rendered = gpu_tolerations(context.state.cluster.gpuNodeTaints)
    return tuple(toleration(t["key"], t["operator"], t.get("value", ""), t["effect"]) for t in rendered)


def run_affinity(context: RunContext) -> tuple[tuple[NodeRequirement, ...], ...]:
    """policy.node_affinity as render's one nodeSelectorTerm; () when the run sets none."""
    wanted = context.run.policy.node_affinity
    return (tuple(wanted),) if wanted else ()


def node_taints(node: ResolvedNode) -> tuple[FilterTaint, ...]:
    """The Node's taints; an inventory that does not list them (native, R39) says none."""
    return tuple(FilterTaint(t.key, t.value, t.effect) for t in node.facts.taints or ())


def node_labels(node: ResolvedNode, taugen: Mapping[str, str]) -> dict[str, str]:
    """What node affinity sees: the inventory's labels, the hostname, taugen's on top."""
    return {**node.facts.labels, HOSTNAME: hostname_of(node.facts), **taugen}


def node_filter(context: RunContext) -> Callable[[ResolvedNode], bool]:
    """Whether the run's pods may go to a node: its taints tolerated, its labels affine (the
    run's tolerations and affinity read once, then matched node by node)."""
    tolerations, terms = run_tolerations(context), run_affinity(context)

    def admits(node: ResolvedNode) -> bool:
        if untolerated(node_taints(node), tolerations) is not None:
            return False
        return not terms or affinity_matches(terms, node_labels(node, node.labels))

    return admits
