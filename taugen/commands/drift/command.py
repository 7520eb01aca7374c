"""`taugen drift NODELIST`: load the project's cluster, its compiled tree and the live nodes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from taugen.commands.drift.compare import Drift, compare, tree_labels
from taugen.context.project import pick_cluster
from taugen.load.inventory import load_inventory
from taugen.load.project import load_cluster_inputs, load_project, load_project_profiles
from taugen.runs.state import cluster_state, stale_problem


def drift(nodelist: Path, config: Path, cluster_name: str | None) -> Drift:
    loaded = load_project(config)
    cluster = pick_cluster(loaded, cluster_name)
    live = load_inventory(nodelist)
    state = cluster_state(loaded, cluster, load_project_profiles(loaded))  # exit 2 when not built
    inventory = load_cluster_inputs(loaded, cluster).inventory
    found = compare(cluster.name, tree_labels(state.folder), inventory, live)
    # R32's digest says whether the tree was compiled from the current inputs.
    return replace(found, warnings=(stale_problem(state).as_warning(),)) if state.stale else found
