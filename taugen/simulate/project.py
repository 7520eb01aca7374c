"""`taugen simulate` on a project: WorkloadSet + compiled tree + inventory -> core input -> result.

Quotas and flavors come from the compiled tree (the project's out/<cluster>/, or --tree, or
one side of a diff); nodes, their topology and readiness from the current inventory,
resolved exactly as `taugen build` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
    clusters = {c.name: c for c in project.project.clusters}
    name = wanted or loaded.workloads.cluster
    if name is None and len(clusters) == 1:
        name = next(iter(clusters))
    known = ", ".join(sorted(clusters))
    if name is None:
        raise _problem(loaded, ["kind"], "the set names no cluster", f"add `cluster:` ({known}) or --cluster")
    if name not in clusters:
        raise _problem(loaded, ["cluster"], f"cluster {name!r} is not in the project", f"use one of: {known}")
    if str(clusters[name].scheduler) != "kueue":
        raise _problem(
            loaded,
            ["cluster"],
            f"cluster {name} is scheduled by {clusters[name].scheduler}",
            "simulate models Kueue's admission and TAS only (SPEC §9)",
        )
    return clusters[name]


def _problem(loaded: LoadedWorkloads, loc: list[str | int], message: str, hint: str) -> InputError:
    problem: Problem = loaded.doc.at(loc).problem(RULE, message, hint)
    return InputError([problem])
