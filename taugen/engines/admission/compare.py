"""`taugen diff --simulate`: the same WorkloadSet simulated on both trees, and what changes for
each planned run: admitted <-> pending (or evicted), or admitted on other hosts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.context.committed import TreeFiles
from taugen.context.session import ProjectContext
from taugen.engines.admission.model import RunResult
from taugen.engines.admission.project import SimulateOptions, prepare, simulate_tree


@dataclass(frozen=True)
class RunImpact:
    key: str
    before: RunResult
    after: RunResult

    @property
    def headline(self) -> str:
        old, new = self.before, self.after
        if old.status != new.status:
            why = f": {new.reason}" if new.reason else ""
            return f"{self.key}: {old.status} → {new.status}{why}"
        return f"{self.key}: moves hosts {_hosts(old)} → {_hosts(new)}"


@dataclass(frozen=True)
class SimulationDiff:
    workloads: str
    cluster: str
    runs: int
    impacts: tuple[RunImpact, ...]


def simulate_sides(
    workloads: Path,
    project_file: Path,
    base: TreeFiles,
    head: TreeFiles,
    label: str,
    project: ProjectContext | None = None,
) -> SimulationDiff:
    """Each side's tree read from its files as the floor reads a committed tree (no copy on
    disk); `project` is the one the command opened (loaded once, for both sides)."""
    setup = prepare(SimulateOptions(workloads, project_file), project)
    before, after = (simulate_tree(setup, files) for files in (base, head))
    old = {r.key: r for r in before.result.runs}
    impacts = tuple(
        RunImpact(r.key, old[r.key], r) for r in after.result.runs if r.key in old and _differs(old[r.key], r)
    )
    return SimulationDiff(label, after.cluster, len(after.result.runs), impacts)


def _differs(old: RunResult, new: RunResult) -> bool:
    return old.status != new.status or (new.status == "admitted" and old.ranks != new.ranks)


def _hosts(run: RunResult) -> str:
    return ", ".join(f"{h} x{n}" for h, n in run.hosts()) or "(none)"
