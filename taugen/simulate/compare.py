"""`taugen diff --simulate`: the same WorkloadSet simulated on both trees, and what changes for
each planned run: admitted <-> pending (or evicted), or admitted on other hosts."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from taugen.context.session import ProjectContext
from taugen.simulate.model import RunResult
from taugen.simulate.project import Setup, SimulateOptions, Simulation, prepare, simulate_tree


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
    base: Mapping[str, bytes],
    head: Mapping[str, bytes],
    label: str,
    project: ProjectContext | None = None,
) -> SimulationDiff:
    """Each side's tree files (relative to its root) are written to a temporary folder; `project`
    is the one the command opened (loaded once, for both sides)."""
    setup = prepare(SimulateOptions(workloads, project_file), project)
    before, after = (_simulate(setup, files) for files in (base, head))
    old = {r.key: r for r in before.result.runs}
    impacts = tuple(
        RunImpact(r.key, old[r.key], r) for r in after.result.runs if r.key in old and _differs(old[r.key], r)
    )
    return SimulationDiff(label, after.cluster, len(after.result.runs), impacts)


def _simulate(setup: Setup, files: Mapping[str, bytes]) -> Simulation:
    with tempfile.TemporaryDirectory(prefix="taugen-simulate-") as folder:
        root = Path(folder)
        for name, content in files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        return simulate_tree(setup, root)


def _differs(old: RunResult, new: RunResult) -> bool:
    return old.status != new.status or (new.status == "admitted" and old.ranks != new.ranks)


def _hosts(run: RunResult) -> str:
    return ", ".join(f"{h} x{n}" for h, n in run.hosts()) or "(none)"
