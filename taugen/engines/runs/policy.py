"""A run's resolved policy (§7): the profile's, with the run's overrides, checked for sense."""

from __future__ import annotations

from taugen.compile.catalog import not_ready_reason
from taugen.compile.fallback import queue_order
from taugen.context.catalog import Catalog, CatalogEntry
from taugen.context.classes import unknown_class_hint
from taugen.core.errors import InputError, Problem
from taugen.engines.runs.load import LoadedRun
from taugen.engines.runs.state import ClusterState
from taugen.load.profiles import ReplacementLoop, replacement_chain
from taugen.models.profile import Policy, classes_of
from taugen.resolve.rules import gpu_class_error


def resolve_policy(loaded: LoadedRun, entry: CatalogEntry, state: ClusterState) -> Policy:
    """The profile's policy with the run's overrides; an explicit tier changes only the tier."""
    over = loaded.run.policy
    if over.gpu_class is not None:
        listed = isinstance(over.gpu_class, list)
        for i, value in enumerate(classes_of(over.gpu_class)):
            _check_class(loaded, value, state, ["policy", "gpu_class", *([i] if listed else [])])
    if over.priority_tier is not None:
        _check_tier(loaded, over.priority_tier, state)
    base = entry.policy
    policy = Policy(
        priority_tier=over.priority_tier or base.priority_tier,
        gpu_class=over.gpu_class or base.gpu_class,
        topology=over.topology or base.topology,
    )
    if policy.fallback:
        _check_fallback(loaded, policy, state)
    return policy


def _check_fallback(loaded: LoadedRun, policy: Policy, state: ClusterState) -> None:
    """R47: a list needs a scheduler that chooses among flavors (Kueue), and an order the
    cluster's queues hold (they try the flavors in the order the profiles give)."""
    from_run = loaded.run.policy.gpu_class is not None
    where = loaded.doc.spot(["policy", "gpu_class"] if from_run else ["profile"], key=True)
    whose = "the run's policy.gpu_class" if from_run else f"profile {loaded.run.profile}"
    if not state.cluster.capabilities.fallback_classes:
        message = (
            f"{whose} lists gpu classes {', '.join(policy.classes)}, but cluster "
            f"{state.cluster.name}'s scheduler ({state.cluster.scheduler}) cannot choose among them: "
            "KAI places a pod by its node selector, one class"
        )
        hint = "give one gpu_class (policy.gpu_class: h200-141gb), or run it on a Kueue cluster"
        raise InputError([where.problem("R47", message, hint)])
    if not from_run:
        return  # a profile's list is in the queues' order (compile refused a contradiction)
    order = queue_classes(state)
    here = [c for c in order if c in policy.classes]
    wanted = [c for c in policy.classes if c in here]
    if wanted != here:
        message = (
            f"the run lists {', '.join(policy.classes)}, but cluster {state.cluster.name}'s queues "
            f"hold these flavors in the order {', '.join(here)}, and Kueue tries them in that order"
        )
        hint = (
            f"list them as {', '.join(here)}, or give a profile that lists them in your order "
            "(one order per cluster, R47)"
        )
        raise InputError([where.problem("R47", message, hint)])


def queue_classes(state: ClusterState) -> list[str]:
    """R47: the cluster's GPU classes in its queues' flavor order (the profiles' lists, then R25's)."""
    lists = [(e.name, e.policy.classes) for e in state.expected.profiles]
    return queue_order([q.gpu_class for q in state.view.quotas], lists)


def _check_class(loaded: LoadedRun, value: str, state: ClusterState, loc: list[str | int]) -> None:
    """R3: no platform identifier; issue 21: a class no rule gives is a typo, never a pending run."""
    where = loaded.doc.spot(loc)
    if err := gpu_class_error(value, state.series_to_class):
        raise InputError([where.problem("R3", *err)])
    known = state.resolved.rules.gpu_classes()
    if value not in known:
        message = f"no rule of cluster {state.cluster.name} gives gpu-class {value!r}: no node can have it"
        raise InputError([where.problem("run", message, unknown_class_hint(value, known))])


def _check_tier(loaded: LoadedRun, value: str, state: ClusterState) -> None:
    """R50: a run names a tier of the project; another has no classes in the cluster."""
    if unknown := state.loaded.project.tiers.unknown(value):
        raise InputError([loaded.doc.spot(["policy", "priority_tier"]).problem("R50", *unknown)])


def not_ready(loaded: LoadedRun, entry: CatalogEntry, policy: Policy, state: ClusterState) -> str | None:
    """Why the run's policy cannot be placed (R30): the catalog's word, or for an overridden
    gpu-class the same reason the catalog would give, from the same inputs."""
    if policy.gpu_class == entry.policy.gpu_class:
        return None if entry.ready else entry.reason or f"profile {entry.name} is not ready"
    quotas = {q.gpu_class: q for q in state.view.quotas}
    reason = not_ready_reason(state.cluster.name, policy.gpu_class, quotas)
    return None if reason is None else f"{reason} (policy.gpu_class of the run)"


def deprecation(loaded: LoadedRun, catalog: Catalog) -> list[Problem]:
    """Profile migration: a deprecated profile still renders, with a warning naming its replacement."""
    try:
        chain = replacement_chain(loaded.run.profile, catalog.replaced_by())
    except ReplacementLoop as loop:  # build refuses a loop: the catalog was edited by hand
        where = catalog.digest_at
        raise InputError(
            [where.problem("profile", f"the replacement chain loops ({loop})", "run `taugen build`")]
        ) from None
    if len(chain) == 1:
        return []
    via = f" (via {', '.join(chain[1:-1])})" if len(chain) > 2 else ""
    return [
        loaded.doc.at(["profile"])
        .problem(
            "deprecated",
            f"profile {chain[0]} is deprecated: it is replaced by {chain[-1]}{via}",
            f"write `profile: {chain[-1]}`",
        )
        .as_warning()
    ]
