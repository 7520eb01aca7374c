"""`taugen profiles`: each cluster's committed catalog (R30) as a table, flagged when stale (R32)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from taugen.context.catalog import CatalogEntry
from taugen.context.session import open_project
from taugen.core.errors import InputError, Problem
from taugen.core.jsontext import dumps
from taugen.core.suggest import closest
from taugen.engines.runs.state import cluster_state, stale_problem

COLUMNS = ("CLUSTER", "PROFILE", "TIER", "GPU-CLASS", "TOPOLOGY", "LEVEL", "READY", "NOTE")


@dataclass(frozen=True)
class ProfileTable:
    cluster: str
    entries: tuple[CatalogEntry, ...]
    stale: Problem | None  # a warning: the catalog was resolved from other inputs


def profile_tables(
    project_file: Path, cluster: str | None = None, names: Sequence[str] = ()
) -> list[ProfileTable]:
    """Each chosen cluster's catalog; only the profiles `names` when given (issue 21: each
    must be in one of the catalogs, a typo is named with the profile it meant)."""
    project = open_project(project_file)
    tables, catalogs = [], []
    for chosen in project.select(cluster):
        state = cluster_state(project, chosen)
        stale = stale_problem(state).as_warning() if state.stale else None
        tables.append(ProfileTable(chosen.name, tuple(state.catalog.body.profiles), stale))
        catalogs.append(state.catalog.path)
    if not names:
        return tables
    known = {e.name for t in tables for e in t.entries}
    clusters = ", ".join(t.cluster for t in tables)
    if problems := [_unknown(name, known, clusters, catalogs[0]) for name in names if name not in known]:
        raise InputError(problems)
    return [replace(t, entries=tuple(e for e in t.entries if e.name in names)) for t in tables]


def _unknown(name: str, known: set[str], clusters: str, catalog: Path) -> Problem:
    close = closest(name, known)
    hint = f"did you mean {close!r}?" if close else f"profiles: {', '.join(sorted(known))}"
    return Problem(catalog, 0, 0, "usage", f"no profile {name!r} in the catalog of {clusters}", hint)


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
        ", ".join(policy.classes) or "-",
        str(policy.topology),
        entry.topologyLevel or "-",
        "yes" if entry.ready else "no",
        "; ".join(notes),
    )
