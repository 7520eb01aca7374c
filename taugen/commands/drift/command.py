"""`taugen drift NODELIST`: load the project's cluster, its compiled tree and the live nodes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from taugen.commands.drift.compare import Drift, compare
from taugen.context.session import open_project
from taugen.engines.runs.state import cluster_state, stale_problem
from taugen.load.inventory import load_inventory


def drift(nodelist: Path, config: Path, cluster_name: str | None) -> Drift:
    project = open_project(config)
    cluster = project.pick(cluster_name)
    live = load_inventory(nodelist)
    state = cluster_state(project, cluster)  # exit 2 when not built
    found = compare(cluster.name, state.tree.node_labels() or {}, state.view.inventory, live)
    # R32's digest says whether the tree was compiled from the current inputs.
    return replace(found, warnings=(stale_problem(state).as_warning(),)) if state.stale else found
