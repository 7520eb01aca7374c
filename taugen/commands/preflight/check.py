"""`taugen preflight`: is a run eligible in its cluster, from the compiled tree and the inventory?

Eligible only (seed 000): capacity is reserved at admission, so a yes can change before then.
Checks: the profile is ready (R30); a ResourceFlavor matches the class on
tau.azure.com/gpu-class alone; the run's ClusterQueue (its LocalQueue's, T5) covers the total
request: its nominal quota, or in a cohort what it could use with the cohort idle (T8); one
domain at the required level holds every rank (no fallback to a wider level, §7); a multi-node
torchrun run also needs the tree to advertise the torchrun-host-slot on GPU nodes (G4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from taugen.compile.catalog import not_ready_reason
from taugen.compile.slot import no_slot_reason
from taugen.core.errors import Problem
from taugen.core.quantity import Quantity
from taugen.engines.placement.nowhere import HostOffer, PodFilters, why_nowhere
from taugen.engines.runs.capacity import CapacityDomain
from taugen.engines.runs.jobset_preflight import fit_pod_sets
from taugen.engines.runs.node_filters import node_labels, node_taints, run_affinity, run_tolerations
from taugen.engines.runs.policy import queue_classes
from taugen.engines.runs.resolution import RunContext, resolve_run
from taugen.engines.runs.topology import TopologyFit, fit_topology
from taugen.schedulers.kueue.units import as_units
from taugen.schedulers.protocol import Check
from taugen.schedulers.registry import scheduler_of


@dataclass(frozen=True)
class Preflight:
    context: RunContext
    checks: tuple[Check, ...]
    request: dict[str, Quantity]  # per worker, the slot included
    domain: CapacityDomain | None = None  # the best fit when one holds the run, else the largest
    wider: CapacityDomain | None = None  # a wider level's domain that would hold it (never used)

    @property
    def eligible(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def verdict(self) -> str:
        return "eligible" if self.eligible else "not eligible"


def preflight_run(run_file: Path, config: Path) -> tuple[Preflight, tuple[Problem, ...]]:
    """The verdict on the run in `run_file`, and its warnings (a deprecated profile)."""
    context = resolve_run(run_file, config)
    return preflight(context), tuple(context.warnings)


def preflight(context: RunContext) -> Preflight:
    return _fallback(context) if context.policy.fallback else _one_class(context)


def _fallback(context: RunContext) -> Preflight:
    """R47: eligible when one listed class is; the class is the first eligible one in the
    queues' flavor order (Kueue tries the flavors in that order), with the cohort idle."""
    state = context.state
    quotas = {q.gpu_class: q for q in state.view.quotas}
    order = [c for c in queue_classes(state) if c in context.policy.classes]
    tried = []
    for gpu_class in order:
        policy = context.policy.model_copy(update={"gpu_class": gpu_class})
        reason = not_ready_reason(state.cluster.name, gpu_class, quotas)
        tried.append((gpu_class, _one_class(replace(context, policy=policy, not_ready=reason))))
    missing = [c for c in context.policy.classes if c not in order]
    absent = f"; {', '.join(missing)} not in cluster {state.cluster.name}" if missing else ""
    queue = f"in the queues' order {', '.join(order)}{absent}"
    for gpu_class, found in tried:
        if found.eligible:
            check = Check("class", True, f"{gpu_class}: the first listed class that is eligible, {queue}")
            return Preflight(context, (check, *found.checks), found.request, found.domain, found.wider)
    failed = [
        Check(c.id, False, f"{gpu_class}: {c.message}")
        for gpu_class, found in tried
        for c in found.checks
        if not c.ok
    ]
    check = Check("class", False, f"no listed class is eligible, {queue}")
    request = tried[0][1].request if tried else context.request
    return Preflight(context, (check, *failed), request)


def _one_class(context: RunContext) -> Preflight:
    request = context.request
    placeable = scheduler_of(context.state.cluster.scheduler).preflight(context, request)
    checks = [_profile(context), *placeable.checks]
    if not placeable.go_on or context.policy.gpu_class is None:
        return Preflight(context, tuple(checks), request)
    if context.host_slot and not context.state.tree.advertises_slot():
        return Preflight(context, (*checks, Check("slot", False, no_slot_reason())), request)
    if context.jobset:  # K6: pod set by pod set, on what the earlier ones leave
        check, failed = fit_pod_sets(context)
        if failed is not None:
            check = Check(check.id, check.ok, _explained(context, failed.request, check.message))
        return Preflight(context, (*checks, check), request)
    fit: TopologyFit = fit_topology(context, request)
    message = fit.message if fit.ok else _explained(context, request, fit.message)
    checks.append(Check("topology", fit.ok, message))
    return Preflight(context, tuple(checks), request, fit.domain, fit.wider)


def _profile(context: RunContext) -> Check:
    cluster = context.state.cluster.name
    if context.not_ready is None:
        return Check("profile", True, f"{context.entry.name} is ready in cluster {cluster}")
    return Check("profile", False, f"{context.entry.name} is not ready: {context.not_ready}")


def _explained(context: RunContext, request: dict[str, Quantity], message: str) -> str:
    """A failing topology check, and why no node holds one pod of `request` when none does
    (issue 34: the words simulate gives for the same cause)."""
    gpu_class = context.policy.gpu_class
    nodes = [
        HostOffer(n.name, n.ready, as_units(n.facts.allocatable), node_taints(n), node_labels(n, n.labels))
        for n in context.state.resolved.nodes
        if n.gpu_class == gpu_class
    ]
    filters = PodFilters(run_tolerations(context), affinity=run_affinity(context))
    why = why_nowhere(as_units(request), nodes, filters)
    return message if why is None else f"{message}; {why}"
