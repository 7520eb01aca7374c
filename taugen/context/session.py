"""The project of one command invocation: loaded once, each cluster resolved at most once.

A command opens the project, picks its cluster(s) and passes this object down; whatever it
calls (a simulation inside `report`, both sides of `diff --simulate`) asks it for a cluster
instead of loading the inputs again.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from taugen.compile.quota import ClassQuota
from taugen.context.cluster import ClusterView, cluster_view
from taugen.context.project import pick_cluster
from taugen.load.document import Position
from taugen.load.profiles import LoadedProfile
from taugen.load.project import LoadedProject, load_cluster_inputs, load_project, load_project_profiles
from taugen.lock.lockfile import LockState, read_lock
from taugen.models.project import Cluster
from taugen.progress import Progress, silent


class ProjectContext:
    def __init__(self, loaded: LoadedProject) -> None:
        self.loaded = loaded
        self._clusters: dict[str, ClusterView] = {}

    @cached_property
    def lock(self) -> LockState:
        return read_lock(self.loaded.lock_path)

    @cached_property
    def profiles(self) -> Sequence[LoadedProfile]:
        return load_project_profiles(self.loaded)

    def pick(self, name: str | None, named_at: Position | None = None) -> Cluster:
        """context/project.py's pick_cluster on this project."""
        return pick_cluster(self.loaded, name, named_at)

    def cluster(self, cluster: Cluster, say: Progress = silent) -> ClusterView:
        """The cluster's inputs loaded and resolved the first time it is asked for (`say`
        names the two stages then); the same view every time after."""
        found = self._clusters.get(cluster.name)
        if found is None:
            workers = self._workers(cluster, say)
            say(f"loading cluster {cluster.name}")
            inputs = load_cluster_inputs(self.loaded, cluster)
            say(f"resolving cluster {cluster.name}")
            found = cluster_view(self.loaded, cluster, self.lock, inputs, workers)
            self._clusters[cluster.name] = found
        return found

    def _workers(self, cluster: Cluster, say: Progress) -> dict[str, tuple[ClassQuota, ...]] | None:
        """A MultiKueue manager's workers' quotas (M2), each worker resolved once."""
        fleet = self.loaded.project.multikueue
        if fleet is None or fleet.manager != cluster.name:
            return None
        return {w: self.cluster(self.pick(w), say).quotas for w in fleet.workers}


def open_project(path: Path) -> ProjectContext:
    return ProjectContext(load_project(path))
