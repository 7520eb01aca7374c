"""`taugen profiles`: each cluster's committed catalog (R30) as a table, flagged when stale (R32)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.context.catalog import CatalogEntry
from taugen.context.project import select_clusters
from taugen.context.session import open_project
from taugen.errors import Problem
from taugen.jsontext import dumps
from taugen.runs.state import cluster_state, stale_problem

COLUMNS = ("CLUSTER", "PROFILE", "TIER", "GPU-CLASS", "TOPOLOGY", "LEVEL", "READY", "NOTE")


@dataclass(frozen=True)
class ProfileTable:
    cluster: str
    entries: tuple[CatalogEntry, ...]
    stale: Problem | None  # a warning: the catalog was resolved from other inputs


def profile_tables(project_file: Path, cluster: str | None = None) -> list[ProfileTable]:
    project = open_project(project_file)
    tables = []
    for chosen in select_clusters(project.loaded, cluster):
        state = cluster_state(project, chosen)
        stale = stale_problem(state).as_warning() if state.stale else None
        tables.append(ProfileTable(chosen.name, tuple(state.catalog.body.profiles), stale))
    return tables


def as_table(tables: list[ProfileTable]) -> str:
    rows = [COLUMNS, *(_row(t.cluster, e) for t in tables for e in t.entries)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines) + "\n"


def as_json(tables: list[ProfileTable]) -> str:
    """Every cluster's catalog entries as the catalog holds them, and whether it is stale (R32)."""
    return dumps(
        [
            {
                "cluster": t.cluster,
                "stale": t.stale is not None,
                "profiles": [e.model_dump(mode="json", exclude_none=True) for e in t.entries],
            }
            for t in tables
        ]
    )


def _row(cluster: str, entry: CatalogEntry) -> tuple[str, ...]:
    notes = [] if entry.ready else [entry.reason or "not ready"]
    if entry.deprecated is not None:
        notes.append(f"deprecated: use {entry.deprecated.replacedBy}")
    policy = entry.policy
    return (
        cluster,
        entry.name,
        str(policy.priority_tier),
        policy.gpu_class or "-",
        str(policy.topology),
        entry.topologyLevel or "-",
        "yes" if entry.ready else "no",
        "; ".join(notes),
    )
