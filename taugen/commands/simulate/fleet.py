"""`taugen simulate --fleet` (M4): admit on the MultiKueue manager, then dispatch to a worker.

A layer over the per-cluster simulation (engine.py), which it calls unchanged. The manager
admits as Kueue does on a ClusterQueue with a MultiKueue check: BestEffortFIFO against the
fleet's summed quota, with no topology placement (Kueue delays it to the worker, so the
manager's flavors are simulated as quota only and its nodes offer nothing). Each admitted run,
in the manager's admission order, goes to the first worker in `workers` order whose own
simulation, of the runs dispatched to it so far and this one, admits it: Kueue's Incremental
dispatcher with every worker nominated in order. A later run sorts after every earlier one
(same priority order, no cohort on a worker: M3), so adding it never changes their outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from taugen.context.session import ProjectContext, open_project
from taugen.core.errors import InputError, Problem
from taugen.engines.admission.engine import simulate
from taugen.engines.admission.inputs import sim_input
from taugen.engines.admission.model import RunResult, SimInput, SimRun, Status
from taugen.engines.admission.workloads import LoadedWorkloads, load_workloads, resolve_runs
from taugen.engines.runs.state import ClusterState, cluster_state, require_fresh
from taugen.models.multikueue import MultiKueue

DISPATCH = (
    "the manager admits against the workers' summed quota without placing topology (Kueue "
    "delays it to the worker); each admitted run goes to the first worker, in `workers` order, "
    "whose own simulation admits it (M4)"
)


@dataclass(frozen=True)
class FleetRun:
    key: str
    status: Status  # admitted: by a worker; pending: by the manager, or by no worker
    worker: str | None
    result: RunResult  # the worker's when dispatched, else the manager's
    refused: tuple[tuple[str, str], ...] = ()  # (worker, its reason) for a run no worker admitted


@dataclass(frozen=True)
class FleetSimulation:
    manager: str
    workers: tuple[str, ...]
    runs: tuple[FleetRun, ...]  # in the manager's admission order
    notes: tuple[str, ...]


def run_fleet(workloads: Path, project_file: Path, project: ProjectContext | None = None) -> FleetSimulation:
    loaded = load_workloads(workloads)
    project = project if project is not None else open_project(project_file)
    fleet = _fleet(project, loaded)
    manager = _state(project, fleet.manager)
    source = _delayed(
        sim_input(
            manager,
            manager.tree.kueue(manager.cluster.clusterQueue),
            None,
            loaded,
            resolve_runs(loaded, manager),
        )
    )
    admitted = simulate(source)
    workers = {w: _worker_input(project, w, loaded) for w in fleet.workers}
    dispatched: dict[str, list[SimRun]] = {w: [] for w in fleet.workers}
    runs = []
    for result in admitted.runs:
        if result.status != "admitted":
            runs.append(FleetRun(result.key, "pending", None, result))
            continue
        runs.append(_dispatch(result, workers, dispatched))
    notes = (DISPATCH, *admitted.notes)
    return FleetSimulation(fleet.manager, tuple(fleet.workers), tuple(runs), notes)


def _dispatch(
    admitted: RunResult, workers: dict[str, SimInput], dispatched: dict[str, list[SimRun]]
) -> FleetRun:
    key, refused = admitted.key, []
    for worker, source in workers.items():
        run = next(r for r in source.runs if r.key == key)
        result = simulate(replace(source, runs=(*dispatched[worker], run)))
        found = next(r for r in result.runs if r.key == key)
        if found.status == "admitted":
            dispatched[worker].append(run)
            return FleetRun(key, "admitted", worker, found)
        refused.append((worker, found.reason))
    manager_side = replace(admitted, status="pending", reason="admitted by the manager; no worker admits it")
    return FleetRun(key, "pending", None, manager_side, tuple(refused))


def _delayed(source: SimInput) -> SimInput:
    """The manager: quota only (no flavor places topology there)."""
    flavors = tuple(replace(f, tas=False) for f in source.flavors)
    return replace(source, flavors=flavors, nodes=())


def _worker_input(project: ProjectContext, name: str, loaded: LoadedWorkloads) -> SimInput:
    state = _state(project, name)
    tree = state.tree
    return sim_input(
        state,
        tree.kueue(state.cluster.clusterQueue),
        None,
        loaded,
        resolve_runs(loaded, state),
        tree.advertises_slot(),
    )


def _state(project: ProjectContext, name: str) -> ClusterState:
    state = cluster_state(project, project.pick(name))
    require_fresh(state)  # R32, for the manager and every worker
    return state


def _fleet(project: ProjectContext, loaded: LoadedWorkloads) -> MultiKueue:
    """M4: a fleet to simulate, and a set of runs only (running pods name one cluster's nodes)."""
    fleet = project.loaded.project.multikueue
    if fleet is None:
        where = project.loaded.doc.at(["clusters"], key=True)
        hint = "add a multikueue block (SPEC §11), or simulate one cluster without --fleet"
        raise InputError([where.problem("M4", "the project has no multikueue block", hint)])
    problems: list[Problem] = []
    ws = loaded.workloads
    for key, present in (("running", bool(ws.running)), ("events", bool(ws.events))):
        if present:
            problems.append(_one_cluster(loaded, [key], f"a fleet WorkloadSet has no {key}"))
    for i, run in enumerate(ws.runs):
        if run.admitted is not None:
            problems.append(
                _one_cluster(loaded, ["runs", i, "admitted"], f"run {run.metadata.name} is admitted")
            )
    if ws.cluster is not None and ws.cluster != fleet.manager:
        problems.append(
            loaded.doc.at(["cluster"]).problem(
                "M4",
                f"the set names cluster {ws.cluster}; a fleet is simulated from its manager {fleet.manager}",
                f"write cluster: {fleet.manager}, or remove it",
            )
        )
    if problems:
        raise InputError(problems)
    return fleet


def _one_cluster(loaded: LoadedWorkloads, loc: list[str | int], message: str) -> Problem:
    hint = "it names one cluster's nodes: simulate it on that cluster without --fleet, or remove it"
    return loaded.doc.at(loc, key=True).problem("M4", message, hint)
