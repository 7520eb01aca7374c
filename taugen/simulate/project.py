"""`taugen simulate` on a project: WorkloadSet + compiled tree + inventory -> core input -> result.

Quotas and flavors come from the compiled tree (the project's out/<cluster>/, or --tree, or
one side of a diff); nodes, their topology and readiness from the current inventory,
resolved exactly as `taugen build` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.context.project import pick_cluster
from taugen.errors import InputError, Problem
from taugen.load.project import LoadedProject, load_project, load_project_profiles
from taugen.models.project import Cluster
from taugen.runs.state import cluster_state, require_fresh
from taugen.runs.tree import read_tree
from taugen.simulate.engine import simulate
from taugen.simulate.inputs import sim_input
from taugen.simulate.model import SimInput, SimResult
from taugen.simulate.workloads import RULE, LoadedWorkloads, load_workloads, resolve_runs


@dataclass(frozen=True)
class SimulateOptions:
    workloads: Path
    project_file: Path = Path("taugen.yaml")
    cluster: str | None = None
    tree: Path | None = None  # a compiled out/<cluster>/ folder (or an output root) instead of the project's


@dataclass(frozen=True)
class Simulation:
    cluster: str
    tree: Path
    source: SimInput
    result: SimResult


def run_simulation(options: SimulateOptions) -> Simulation:
    loaded = load_workloads(options.workloads)
    project = load_project(options.project_file)
    cluster = _cluster(project, loaded, options.cluster)
    state = cluster_state(project, cluster, load_project_profiles(project))
    require_fresh(state)
    folder = options.tree or state.folder
    if (folder / cluster.name).is_dir():  # an output root holding the cluster's folder
        folder = folder / cluster.name
    tree = read_tree(folder, cluster.clusterQueue)
    source = sim_input(state, tree, loaded, resolve_runs(loaded, state), options.tree is not None)
    return Simulation(cluster.name, folder, source, simulate(source))


def _cluster(project: LoadedProject, loaded: LoadedWorkloads, wanted: str | None) -> Cluster:
    """--cluster, else the set's `cluster:`, else the only one; Kueue clusters only (§9)."""
    from_file = wanted is None
    name = wanted or loaded.workloads.cluster
    cluster = pick_cluster(
        project, name, loaded.doc.at(["cluster"] if name else ["kind"]) if from_file else None
    )
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
