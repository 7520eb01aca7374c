"""One cluster as explain, inventory and drift see it: resolved inputs and the high-water marks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from taugen.compile.quota import ClassQuota, plan_quotas
from taugen.context.project import pick_cluster
from taugen.load.project import LoadedProject, load_cluster_inputs, load_project
from taugen.lock.lockfile import read_lock
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster, resolve


@dataclass(frozen=True)
class ClusterView:
    loaded: LoadedProject
    cluster: Cluster
    resolved: ResolvedCluster
    high_water: Mapping[str, int]  # R26: gpuQuota in the committed lock
    quotas: tuple[ClassQuota, ...]  # what a build would write, high-water marks included

    @property
    def name(self) -> str:
        return self.cluster.name

    def relative(self, path: Path) -> str:
        """A path as the project names it: relative to the project file's folder."""
        try:
            return path.resolve().relative_to(self.loaded.root).as_posix()
        except ValueError:
            return path.as_posix()

    def quota(self, gpu_class: str) -> ClassQuota | None:
        return next((q for q in self.quotas if q.gpu_class == gpu_class), None)


def load_view(config: Path, name: str | None) -> ClusterView:
    """Load and resolve one cluster as `taugen build` does; nothing is compiled or written."""
    loaded = load_project(config)
    cluster = pick_cluster(loaded, name)
    resolved = resolve(load_cluster_inputs(loaded, cluster))
    entry = read_lock(loaded.lock_path).lock.clusters.get(cluster.name)
    high_water = dict(entry.gpuQuota) if entry else {}
    quotas, _ = plan_quotas(resolved, high_water, allow_decrease=False)
    return ClusterView(loaded, cluster, resolved, high_water, tuple(quotas))
