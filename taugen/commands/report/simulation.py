"""`taugen report --simulate`: where each run of a WorkloadSet lands (SPEC §9, S6), from
`taugen simulate` (issue 10), in the report's own small shape."""

from __future__ import annotations

from pathlib import Path

from taugen.commands.report.model import ReportRun, SimulationView
from taugen.context.session import ProjectContext
from taugen.engines.admission.model import RunResult
from taugen.engines.admission.project import SimulateOptions, run_simulation


def simulate_view(
    workloads: Path, project: ProjectContext, cluster: str | None
) -> tuple[str, SimulationView]:
    """The simulated cluster's name (the set's, or `cluster`) and what the page shows of it."""
    sim = run_simulation(SimulateOptions(workloads, project.loaded.doc.path, cluster), project)
    totals = tuple((t.flavor, t.requested, t.admitted, t.free) for t in sim.result.totals)
    runs = tuple(_run(r) for r in sim.result.runs)
    return sim.cluster, SimulationView(str(workloads), runs, totals, sim.result.notes)


def _run(result: RunResult) -> ReportRun:
    namespace, _, name = result.key.rpartition("/")
    placed = () if None in result.ranks else tuple(h for h in result.ranks if h is not None)
    return ReportRun(name, namespace, result.status, result.reason, result.flavor or "", placed)
