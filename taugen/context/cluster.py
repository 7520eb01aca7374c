"""One cluster as every command sees it: its inputs loaded and resolved once, with its quotas.

`taugen build` and every command after it (explain, inventory show, report, drift, render,
preflight, profiles, simulate) see the same cluster: the inputs `load_cluster_inputs` reads,
resolved as a build resolves them, and the GPU quota history a build starts from (R26, R35:
the lock's high-water marks, else the committed tree's queue). Nothing is compiled or written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from taugen.compile.fleet import fleet_quotas, manager_of
from taugen.compile.guarantee import Guarantees, plan_guarantees
from taugen.compile.quota import ClassQuota, plan_quotas
from taugen.context.project import pick_cluster
from taugen.load.inventory import Inventory
from taugen.load.project import ClusterInputs, LoadedProject, load_cluster_inputs, load_project
from taugen.lock.lockfile import LockState, read_lock
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster, resolve
from taugen.schedulers.history import QuotaHistory, quota_history


@dataclass(frozen=True)
class ClusterView:
    loaded: LoadedProject
    cluster: Cluster
    inputs: ClusterInputs
    resolved: ResolvedCluster
    history: QuotaHistory  # R26, R35: where the high-water marks come from
    quotas: tuple[ClassQuota, ...]  # what a build writes without --allow-quota-decrease
    guarantees: Guarantees = field(
        default_factory=Guarantees
    )  # §10: the tenants' guarantees resolved against `quotas`

    @property
    def name(self) -> str:
        return self.cluster.name

    @property
    def inventory(self) -> Inventory:
        return self.inputs.inventory

    @property
    def folder(self) -> Path:
        """The cluster's committed tree: out/<cluster>/ of the project's output root."""
        return cluster_folder(self.loaded, self.cluster)

    @property
    def high_water(self) -> Mapping[str, int]:
        """Per gpu-class high-water mark (R26); empty before the first build."""
        return self.history.marks

    def relative(self, path: Path) -> str:
        """A path as the project names it: relative to the project file's folder."""
        try:
            return path.resolve().relative_to(self.loaded.root).as_posix()
        except ValueError:
            return path.as_posix()

    def quota(self, gpu_class: str) -> ClassQuota | None:
        return next((q for q in self.quotas if q.gpu_class == gpu_class), None)


def cluster_folder(loaded: LoadedProject, cluster: Cluster) -> Path:
    return loaded.output_root(None) / cluster.name


def cluster_view(
    loaded: LoadedProject,
    cluster: Cluster,
    lock: LockState | None = None,
    inputs: ClusterInputs | None = None,
    workers: Mapping[str, Sequence[ClassQuota]] | None = None,
) -> ClusterView:
    """Resolve `cluster` as `taugen build` does, from `inputs` when the caller has loaded them
    (build checks their age first, R31) and against `lock` when it has read it. A MultiKueue
    manager's quotas are its workers' summed (M2): from `workers` when the caller has them."""
    inputs = inputs if inputs is not None else load_cluster_inputs(loaded, cluster)
    resolved = resolve(inputs)
    state = lock if lock is not None else read_lock(loaded.lock_path)
    history = quota_history(cluster, state, loaded.lock_path, cluster_folder(loaded, cluster))
    fleet = loaded.project.multikueue
    if fleet is not None and manager_of(fleet, cluster.name):
        if workers is None:
            named = {c.name: c for c in loaded.project.clusters}
            workers = {w: cluster_view(loaded, named[w], state).quotas for w in fleet.workers}
        quotas, _ = fleet_quotas(workers, history.marks, False, loaded.doc.at(["multikueue", "workers"]))
    else:
        quotas, _ = plan_quotas(resolved, history.marks, allow_decrease=False)
    guarantees = plan_guarantees(cluster, quotas, loaded.doc, loaded.project.clusters.index(cluster))
    return ClusterView(loaded, cluster, inputs, resolved, history, tuple(quotas), guarantees)


def load_view(config: Path, name: str | None) -> ClusterView:
    """One cluster of the project file `config`: --cluster NAME, else the only one."""
    loaded = load_project(config)
    return cluster_view(loaded, pick_cluster(loaded, name))
