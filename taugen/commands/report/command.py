"""`taugen report` as a core function: the project in, one HTML file out (the CLI prints)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from taugen.commands.report.capacity import class_rows, tenant_rows
from taugen.commands.report.changes import diff_view, removed_hosts
from taugen.commands.report.cohorts import flavor_order_of, group_rows
from taugen.commands.report.model import ClusterSection, SimulationView
from taugen.commands.report.page import page
from taugen.commands.report.simulation import simulate_view
from taugen.commands.report.topology import hosts_of, outside_of, path_levels, tree
from taugen.context.cluster import ClusterView, PlanOptions
from taugen.context.session import ProjectContext, open_project
from taugen.core.errors import TaugenError
from taugen.core.gcpause import paused_gc
from taugen.core.progress import Progress, silent
from taugen.core.timestamps import utc_text
from taugen.engines.changes.engine import DiffOptions, DiffResult, diff
from taugen.models.project import Cluster
from taugen.write.safewrite import refuse_unsafe, write_file


@dataclass(frozen=True)
class ReportOptions:
    project_file: Path = Path("taugen.yaml")
    cluster: str | None = None
    out: Path = Path("taugen-report.html")
    diff_base: str | None = None  # compared with the project's output tree, as `taugen diff BASE`
    workloads: Path | None = None  # a WorkloadSet for `--simulate` (SPEC §9)
    cwd: Path = Path()
    progress: Progress = field(default=silent, compare=False)


@dataclass(frozen=True)
class ReportPage:
    title: str
    subtitle: str
    clusters: tuple[ClusterSection, ...]


def collect(options: ReportOptions) -> ReportPage:
    """Everything the page shows: each selected cluster resolved, with the diff and simulation."""
    say = options.progress
    say(f"loading {options.project_file}")
    project = open_project(options.project_file, PlanOptions(progress=say))
    clusters = project.select(options.cluster)
    changes = None
    if options.diff_base is not None:
        say(f"comparing with {options.diff_base}")
        changes = diff(DiffOptions(options.diff_base, None, options.cwd, options.project_file), project)
    simulated = None
    if options.workloads is not None:
        say(f"simulating {options.workloads}")
        simulated = simulate_view(options.workloads, project, options.cluster)
    only = len(clusters) == 1
    views = tuple(_view(project, project.cluster(c), changes, simulated, only) for c in clusters)
    return ReportPage(f"taugen report: {options.project_file}", _subtitle(clusters, changes, options), views)


def report_html(options: ReportOptions) -> str:
    """The page, with the collector paused, as `build` and `diff` pause it (core/gcpause.py,
    issue 36: it walked the loaded inventory again and again)."""
    with paused_gc():
        found = collect(options)
        options.progress("writing the page")
        return page(found.title, found.subtitle, found.clusters)


def write_report(options: ReportOptions) -> Path:
    """Write the page beside its final name, then rename: a failed report leaves nothing behind.
    --out is refused before any work when it is a link, a device, a FIFO or a folder (issue 17)."""
    if not options.out.parent.is_dir():
        raise TaugenError(f"--out {options.out}: no folder {options.out.parent} to write it in")
    refuse_unsafe(options.out)
    write_file(options.out, report_html(options).encode("utf-8"))
    return options.out


def _view(
    project: ProjectContext,
    cluster: ClusterView,
    changes: DiffResult | None,
    simulated: tuple[str, SimulationView] | None,
    only: bool,
) -> ClusterSection:
    resolved = cluster.resolved
    slots = project.tree(cluster.cluster).advertises_slot()
    hosts = hosts_of(resolved, slots)
    levels = path_levels(resolved.levels)  # R42: the Topology's, top to bottom, above the host
    view = diff_view(changes, cluster.name, only) if changes else None
    ghosts = removed_hosts(changes, view, levels) if changes and view else []
    simulation = simulated[1] if simulated and simulated[0] == cluster.name else None
    known = cluster.history.known
    return ClusterSection(
        cluster.name,
        utc_text(resolved.observed_at),
        tree([*hosts, *ghosts], levels),
        class_rows(
            resolved,
            cluster.high_water if known else None,
            cluster.history.extra_marks if known else None,
        ),
        sum(n.gpu_class is None for n in resolved.nodes),
        view,
        simulation,
        tenants=tenant_rows(cluster.cluster, cluster.quotas, cluster.guarantees),
        levels=levels if resolved.levels.declared else (),
        outside=tuple(outside_of(resolved, slots)),
        flavor_order=flavor_order_of(cluster.cluster, cluster.quotas, project.profiles, cluster.guarantees),
        groups=group_rows(cluster.quotas, cluster.guarantees),
    )


def _subtitle(clusters: Sequence[Cluster], changes: DiffResult | None, options: ReportOptions) -> str:
    words = [
        f"{len(clusters)} cluster{'s' if len(clusters) != 1 else ''}: {', '.join(c.name for c in clusters)}"
    ]
    if changes is not None:
        words.append(f"changes {changes.base} → {changes.head}")
    if options.workloads is not None:
        words.append(f"simulated {options.workloads}")
    return "; ".join(words)
