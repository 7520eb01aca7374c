"""`taugen render` (§7, K4, K5): a run resolved against its project, rendered into its scheduler's
contract, with its warnings for stderr: a deprecated profile, how multi-node torchrun is placed."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from taugen.compile.slot import SLOT
from taugen.core.errors import Problem
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import RunContext, resolve_run
from taugen.models.profile import ProfileTopology
from taugen.resolve.labels import INFINIBAND, NETWORK_DOMAIN


def render_run(run_file: Path, config: Path, form: Literal["manifest", "patch"]) -> tuple[str, list[Problem]]:
    """The rendered YAML and the run's warnings."""
    context = resolve_run(run_file, config)
    return render(context, form), run_warnings(context)


def run_warnings(context: RunContext) -> list[Problem]:
    """For stderr: a deprecated profile, and how multi-node torchrun is placed."""
    found = list(context.warnings)
    if context.multi_node:
        found.append(placement_warning(context))
    return found


def placement_warning(context: RunContext) -> Problem:
    run, policy = context.run, context.policy
    where = context.loaded.doc.at(["launcher"])
    if policy.gpu_class is None:
        return where.problem(
            "§7",
            f"CPU-only multi-node torchrun: the {run.workers} ranks request no {SLOT} "
            "(the CPU flavor has none), so several ranks may share a node",
            "use a gpu_class for one rank per node",
        ).as_warning()
    scope = (
        f"the ranks may land on any Ready {policy.class_text} nodes"
        if context.level is None
        else f"the ranks stay in one {context.level} ({policy.topology})"
    )
    if context.preferred_level is not None:
        scope = f"the ranks stay in one {context.preferred_level} if one holds them, else a wider domain"
    if context.level == NETWORK_DOMAIN:
        scope += (
            f"; this does not require {INFINIBAND}=true: a node without a provider fabric is a network "
            "domain of its own"
        )
    where_pending = "in one domain " if policy.topology != ProfileTopology.UNCONSTRAINED else ""
    return where.problem(
        "§7",
        f"multi-node torchrun: each of the {run.workers} ranks requests one {SLOT}, so every rank "
        "gets a GPU node of its own that no other multi-node torchrun workload shares, even with GPUs "
        f"left on it; {scope}",
        f"with fewer than {run.workers} free Ready {policy.class_text} nodes {where_pending}the run stays "
        "pending: nothing falls back to a wider level (`taugen preflight` checks eligibility)",
    ).as_warning()
