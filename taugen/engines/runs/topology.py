"""The topology check of preflight: one domain at the required level must hold every rank."""

from __future__ import annotations

from dataclasses import dataclass, replace

from taugen.core.quantity import Quantity
from taugen.engines.runs.capacity import CapacityDomain, best_fit, domains, largest, wider_levels
from taugen.engines.runs.node_filters import node_filter
from taugen.engines.runs.resolution import RunContext
from taugen.resolve.cluster import ResolvedNode

FILTERED = "with an untolerated taint or outside the run's node affinity"


@dataclass(frozen=True)
class TopologyFit:
    ok: bool
    message: str
    domain: CapacityDomain | None  # the best fit, or the largest when none fits
    wider: CapacityDomain | None = None  # a wider level's best fit: reported, never used (§7)


def fit_topology(context: RunContext, request: dict[str, Quantity]) -> TopologyFit:
    """The best-fit domain; nodes without a declared level's label are left out, as Kueue leaves
    them (R42, levels.missing), and the message says how many."""
    members = [n for n in context.state.resolved.nodes if n.gpu_class == context.policy.gpu_class]
    nodes = [n for n in members if not context.levels.missing(n.facts.labels)]
    found = _fit(context, nodes, request)
    dropped = len(members) - len(nodes)
    if not dropped:
        return found
    labels = ", ".join(context.levels.own_labels)
    note = f" ({dropped} without every level label ({labels}), left out as Kueue leaves them)"
    return replace(found, message=found.message + note)


def _fit(context: RunContext, nodes: list[ResolvedNode], request: dict[str, Quantity]) -> TopologyFit:
    gpu_class, workers, level = context.policy.gpu_class, context.group, context.level
    found = domains(
        nodes,
        level,
        request,
        context.multi_node,
        node_filter(context),
        context.leader_request,
        context.levels.labels,
    )
    preferred = context.preferred_level
    scope = level or (f"preferred {preferred} (else wider)" if preferred else "unconstrained")
    per_node = " (multi-node torchrun: one rank per node)" if context.multi_node else ""
    best = best_fit(found, workers)
    if best is not None:
        chosen = "" if level is None else "best domain "
        holds = f"{best.name} holds {_holds(best)}"
        message = f"{scope}: {chosen}{holds}; headroom {best.ranks - workers}{per_node}"
        return TopologyFit(True, message, best)
    big = largest(found)
    if big is None or not any(d.ready for d in found):
        excluded, filtered = sum(d.not_ready for d in found), sum(d.filtered for d in found)
        parts = [f"{excluded} not Ready"] if excluded else []
        parts += [f"{filtered} Ready {FILTERED}"] if filtered else []
        note = f" ({', '.join(parts)}, excluded)" if parts else ""
        cluster = context.state.cluster.name
        message = f"{scope}: no Ready {gpu_class} node the run may use in cluster {cluster}{note}"
        if not filtered:  # the message as before
            message = f"{scope}: no Ready {gpu_class} node in cluster {cluster}{note}"
        return TopologyFit(False, message, None)
    lacks = workers - big.ranks
    if level is None:
        message = f"{scope}: {big.name} holds {_holds(big)}, {workers} needed{per_node}: lacks {lacks}"
    else:
        message = (
            f"no single {level} holds {workers} ranks{per_node}; the largest, {big.name}, holds "
            f"{_holds(big)}: lacks {lacks}"
        )
    wider = _wider(context, nodes, request)
    if wider is not None:
        message += (
            f"; {wider.level} {wider.name} would hold {wider.ranks}, but nothing falls back to a wider "
            f"level: set policy.topology to {context.levels.asking(wider.level or '')} to use it"
        )
    return TopologyFit(False, message, big, wider)


def _holds(domain: CapacityDomain) -> str:
    ranks = "rank" if domain.ranks == 1 else "ranks"
    nodes = "node" if domain.ready == 1 else "nodes"
    text = f"{domain.ranks} {ranks} on {domain.ready} Ready {nodes}"
    parts = [f"{domain.not_ready} not Ready"] if domain.not_ready else []
    parts += [f"{domain.filtered} {FILTERED}"] if domain.filtered else []
    return f"{text} ({', '.join(parts)}, excluded)" if parts else text


def _wider(
    context: RunContext, nodes: list[ResolvedNode], request: dict[str, Quantity]
) -> CapacityDomain | None:
    """The nearest wider level with a domain that would hold the run: said, never used."""
    if context.level is None:
        return None
    labels = context.levels.labels
    for level in wider_levels(context.level, labels):
        found = domains(
            nodes, level, request, context.multi_node, node_filter(context), context.leader_request, labels
        )
        fit = best_fit(found, context.group)
        if fit is not None:
            return fit
    return None
