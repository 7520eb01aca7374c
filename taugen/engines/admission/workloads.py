"""Load a WorkloadSet file (S1) with positions, and resolve each run as render does (§7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taugen.core.errors import InputError, Problem, Rule
from taugen.engines.runs.covered import check_covered
from taugen.engines.runs.load import LoadedRun, run_problems
from taugen.engines.runs.policy import not_ready, resolve_policy
from taugen.engines.runs.resolution import RunContext, catalog_entry, run_tenant
from taugen.engines.runs.shape import check_shape
from taugen.engines.runs.state import ClusterState
from taugen.load.document import Document, Loc, Position, load_one
from taugen.load.validate import validate
from taugen.models.workloads import WorkloadSet

RULE: Rule = "S1"


@dataclass(frozen=True)
class RunDocument(Document):
    """One run inside the WorkloadSet: positions are looked up under `runs[i]` of the file."""

    parent: Document | None = None
    prefix: tuple[str | int, ...] = ()

    def at(self, loc: Loc, *, key: bool = False) -> Position:
        assert self.parent is not None
        return self.parent.at([*self.prefix, *loc], key=key)


@dataclass(frozen=True)
class LoadedWorkloads:
    workloads: WorkloadSet
    doc: Document

    def run_doc(self, index: int) -> RunDocument:
        data: Any = self.doc.data["runs"][index]
        return RunDocument(self.doc.path, data, parent=self.doc, prefix=("runs", index))


def load_workloads(path: Any) -> LoadedWorkloads:
    doc = load_one(path)
    loaded = LoadedWorkloads(validate(WorkloadSet, doc, RULE), doc)
    problems = _duplicates(loaded) + _negative_running(loaded)
    for index, run in enumerate(loaded.workloads.runs):
        problems += run_problems(loaded.run_doc(index), run)
    if problems:
        raise InputError(problems)
    return loaded


def _duplicates(loaded: LoadedWorkloads) -> list[Problem]:
    seen: set[str] = set()
    found = []
    for index, run in enumerate(loaded.workloads.runs):
        if run.metadata.name in seen:
            found.append(
                loaded.doc.at(["runs", index, "metadata", "name"]).problem(
                    RULE, f"two runs are named {run.metadata.name}", "give every run of the set its own name"
                )
            )
        seen.add(run.metadata.name)
    return found


def _negative_running(loaded: LoadedWorkloads) -> list[Problem]:
    """A negative request of a running pod would free capacity that is not there (issue 17)."""
    return [
        loaded.doc.at(["running", index, "requests", name]).problem(
            RULE, f"{name} is negative ({quantity})", "a running pod requests a value >= 0"
        )
        for index, pod in enumerate(loaded.workloads.running)
        for name, quantity in pod.requests.items()
        if quantity.value < 0
    ]


def resolve_runs(loaded: LoadedWorkloads, state: ClusterState) -> list[RunContext]:
    """Every run's context; the problems of all runs are reported together (exit 2)."""
    contexts, problems = [], []
    for index, run in enumerate(loaded.workloads.runs):
        doc = loaded.run_doc(index)
        if run.cluster is not None and run.cluster != state.cluster.name:
            problems.append(
                doc.at(["cluster"]).problem(
                    RULE,
                    f"the run names cluster {run.cluster}, the set is simulated on {state.cluster.name}",
                    "remove the run's cluster, or simulate it with its own WorkloadSet",
                )
            )
            continue
        try:
            contexts.append(_context(LoadedRun(run, doc), state))
        except InputError as err:
            problems.extend(err.problems)
    if problems:
        raise InputError(problems)
    return contexts


def _context(loaded: LoadedRun, state: ClusterState) -> RunContext:
    tenant = run_tenant(state.cluster, loaded)
    check_covered(loaded, state)  # R45
    entry = catalog_entry(state, loaded)
    policy = resolve_policy(loaded, entry, state)
    check_shape(loaded, policy, state.cluster)
    return RunContext(loaded, state, tenant, entry, policy, not_ready(loaded, entry, policy, state), ())
