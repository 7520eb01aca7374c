"""`taugen simulate` on a project: WorkloadSet + compiled tree + inventory -> core input -> result.

Quotas and flavors come from the compiled tree (the project's out/<cluster>/, or --tree, or
one side of a diff); nodes, their topology and readiness from the current inventory,
resolved exactly as `taugen build` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.context.committed import TreeFiles
from taugen.context.session import ProjectContext, open_project
from taugen.context.tree import CompiledTree
from taugen.core.errors import InputError, Problem
from taugen.engines.admission.engine import simulate
from taugen.engines.admission.inputs import sim_input
from taugen.engines.admission.model import SimInput, SimResult
from taugen.engines.admission.workloads import RULE, LoadedWorkloads, load_workloads, resolve_runs
from taugen.engines.runs.state import ClusterState, cluster_state, require_fresh
from taugen.models.project import Cluster


@dataclass(frozen=True)
class SimulateOptions:
    workloads: Path
    project_file: Path = Path("taugen.yaml")
    cluster: str | None = None
    tree: Path | None = None  # a compiled out/<cluster>/ folder (or an output root) instead of the project's
    cycles: int | None = None  # R52: --cycles N; None: until a cycle changes nothing


@dataclass(frozen=True)
class Simulation:
    cluster: str
    tree: Path
    source: SimInput
    result: SimResult


@dataclass(frozen=True)
class Setup:
    """What every tree of one simulation shares: the WorkloadSet and the project's cluster."""

    workloads: LoadedWorkloads
    state: ClusterState


def prepare(options: SimulateOptions, project: ProjectContext | None = None) -> Setup:
    """Load the set and its cluster (from `project` when the command has opened it); R32."""
    loaded = load_workloads(options.workloads)
    project = project if project is not None else open_project(options.project_file)
    state = cluster_state(project, _cluster(project, loaded, options.cluster))
    require_fresh(state)
    return Setup(loaded, state)


def simulate_tree(
    setup: Setup, other: Path | TreeFiles | None = None, cycles: int | None = None
) -> Simulation:
    """The set simulated on the project's tree, or on `other` (a cluster folder or an output
    root, on disk or a diff side's files), whose own node labels then place the nodes."""
    state = setup.state
    tree = state.tree if other is None else _other(other, state.cluster.name)
    if isinstance(other, Path) and tree.folder == state.folder:
        tree = state.tree
    folder = tree.folder
    kueue = tree.kueue(state.cluster.clusterQueue)
    labels = tree.node_labels() if other is not None else None
    runs = resolve_runs(setup.workloads, state)
    source = sim_input(state, kueue, labels, setup.workloads, runs, tree.advertises_slot())
    return Simulation(state.cluster.name, folder, source, simulate(source, cycles))


def _other(other: Path | TreeFiles, name: str) -> CompiledTree:
    """A cluster's tree, or the cluster's folder of an output root."""
    if isinstance(other, TreeFiles):
        return CompiledTree.of(other.under(name) or other)
    return CompiledTree.read(other / name if (other / name).is_dir() else other)


def run_simulation(options: SimulateOptions, project: ProjectContext | None = None) -> Simulation:
    return simulate_tree(prepare(options, project), options.tree, options.cycles)


def _cluster(project: ProjectContext, loaded: LoadedWorkloads, wanted: str | None) -> Cluster:
    """--cluster, else the set's `cluster:`, else the only one; Kueue clusters only (§9)."""
    from_file = wanted is None
    name = wanted or loaded.workloads.cluster
    cluster = project.pick(name, loaded.doc.at(["cluster"] if name else ["kind"]) if from_file else None)
    if str(cluster.scheduler) != "kueue":
        raise _problem(
            loaded,
            ["cluster"],
            f"cluster {cluster.name} is scheduled by {cluster.scheduler}",
            "simulate models Kueue's admission and TAS only (SPEC §9)",
        )
    return cluster


def _problem(loaded: LoadedWorkloads, loc: list[str | int], message: str, hint: str) -> InputError:
    problem: Problem = loaded.doc.at(loc).problem(RULE, message, hint)
    return InputError([problem])
