"""The project of one command invocation: opened once, each cluster resolved and planned once.

Every command opens the project here (`open_project`), picks its cluster(s) and passes this
object down; whatever it calls (a simulation inside `report`, both sides of `diff --simulate`,
each cluster of `build`) asks it for a cluster instead of loading the inputs again. The plan
options are the build's (`PlanOptions`: --allow-quota-decrease, --allow-stale, the clock, progress),
so a build's quotas and guarantees are planned once, by the view every other command sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from taugen.compile.fleet import manager_of
from taugen.compile.quota import ClassQuota
from taugen.context.cluster import ClusterView, PlanOptions, cluster_folder, plan_cluster
from taugen.context.project import pick_cluster, select_clusters
from taugen.context.tree import CompiledTree
from taugen.load.document import Position
from taugen.load.profiles import LoadedProfile
from taugen.load.project import LoadedProject, load_project, load_project_profiles
from taugen.lock.lockfile import LockState, read_lock
from taugen.models.project import Cluster


class ProjectContext:
    def __init__(self, loaded: LoadedProject, plan: PlanOptions | None = None) -> None:
        self.loaded = loaded
        self.plan = plan if plan is not None else PlanOptions()
        self._clusters: dict[str, ClusterView] = {}
        self._trees: dict[str, CompiledTree] = {}

    @cached_property
    def lock(self) -> LockState:
        """taugen.lock, read when first asked for (a build asks after recovering a killed one)."""
        return read_lock(self.loaded.lock_path)

    @cached_property
    def profiles(self) -> Sequence[LoadedProfile]:
        return load_project_profiles(self.loaded)

    def pick(self, name: str | None, named_at: Position | None = None) -> Cluster:
        """context/project.py's pick_cluster on this project."""
        return pick_cluster(self.loaded, name, named_at)

    def select(self, name: str | None) -> list[Cluster]:
        """context/project.py's select_clusters on this project: --cluster NAME, else all."""
        return select_clusters(self.loaded, name)

    def folder(self, cluster: Cluster) -> Path:
        """The cluster's committed tree, out/<cluster>/."""
        return cluster_folder(self.loaded, cluster)

    def tree(self, cluster: Cluster) -> CompiledTree:
        """The cluster's committed tree, out/<cluster>/, through the one reader (each file parsed once)."""
        found = self._trees.get(cluster.name)
        if found is None:
            found = self._trees[cluster.name] = CompiledTree.read(self.folder(cluster))
        return found

    def one(self, name: str | None) -> ClusterView:
        """--cluster NAME, else the only cluster, resolved and planned."""
        return self.cluster(self.pick(name))

    def clusters(self, name: str | None) -> list[ClusterView]:
        """--cluster NAME, else every cluster, each resolved and planned, in the project's order."""
        return [self.cluster(c) for c in self.select(name)]

    def cluster(self, cluster: Cluster) -> ClusterView:
        """The cluster's inputs loaded, resolved and planned the first time it is asked for; the
        same view every time after. A manager's workers are planned first (M2)."""
        found = self._clusters.get(cluster.name)
        if found is None:
            workers = self._workers(cluster)
            found = plan_cluster(self.loaded, cluster, self.lock, self.plan, workers)
            self._clusters[cluster.name] = found
        return found

    def manager(self, clusters: Sequence[Cluster]) -> Cluster | None:
        """The MultiKueue manager among `clusters`, if one is (M2)."""
        return next((c for c in clusters if manager_of(self.loaded.project.multikueue, c.name)), None)

    def workers(self) -> list[Cluster]:
        """The MultiKueue workers, in the project's `workers` order (M2); none without a fleet."""
        fleet = self.loaded.project.multikueue
        return [] if fleet is None else [self.pick(w) for w in fleet.workers]

    def needed(self, clusters: Sequence[Cluster]) -> list[Cluster]:
        """What planning `clusters` takes: a selected manager's workers too, before it (M2)."""
        manager = self.manager(clusters)
        if manager is None:
            return list(clusters)
        others = [c for c in clusters if c is not manager]
        return [*others, *(w for w in self.workers() if w not in clusters), manager]

    def _workers(self, cluster: Cluster) -> dict[str, tuple[ClassQuota, ...]] | None:
        """A MultiKueue manager's workers' quotas (M2), each worker planned once."""
        if self.manager([cluster]) is None:
            return None
        return {w.name: self.cluster(w).quotas for w in self.workers()}


def open_project(path: Path, plan: PlanOptions | None = None) -> ProjectContext:
    return ProjectContext(load_project(path), plan)


def load_view(config: Path, name: str | None) -> ClusterView:
    """One cluster of the project file `config`: --cluster NAME, else the only one."""
    return open_project(config).one(name)
