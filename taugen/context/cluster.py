"""One cluster as every command sees it: its inputs loaded and resolved once, with its plan.

`taugen build` and every command after it (explain, inventory show, report, drift, render,
preflight, profiles, simulate) see the same cluster: the inputs `load_cluster_inputs` reads,
resolved as a build resolves them, the GPU quota history a build starts from (R26, R35: the
lock's high-water marks, else the committed tree's queue), and the quotas and guarantees a
build writes, planned once here with the build's options (`PlanOptions`). Nothing is compiled or
written. The one place a MultiKueue manager's quotas become its workers' summed (M2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from taugen.compile.extra import check_extra
from taugen.compile.fleet import ManagerPlan, fleet_quotas
from taugen.compile.guarantee import Guarantees, plan_guarantees
from taugen.compile.guarantee_checks import weight_warnings
from taugen.compile.quota import ClassQuota, plan_quotas
from taugen.core.errors import InputError, Problem
from taugen.core.progress import Progress, silent
from taugen.load.inventory import Inventory
from taugen.load.native import Early
from taugen.load.project import ClusterInputs, LoadedProject, load_cluster_inputs
from taugen.lock.lockfile import LockState
from taugen.lock.staleness import check_fresh
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster, resolve
from taugen.schedulers.history import QuotaHistory, check_total, quota_history


@dataclass(frozen=True)
class PlanOptions:
    """The options a cluster is planned with: a build's (BuildOptions), else a command's default."""

    allow_quota_decrease: bool = False
    allow_stale: bool = False
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    progress: Progress = field(default=silent, compare=False)
    build: bool = False  # a build: R31 (the inventory's age) and R26 (a KAI tree's total) refuse it
    early: Early | None = field(default=None, compare=False)  # issue 36: an inventory parsed ahead


@dataclass(frozen=True)
class ClusterView:
    loaded: LoadedProject
    cluster: Cluster
    inputs: ClusterInputs
    resolved: ResolvedCluster
    history: QuotaHistory  # R26, R35: where the high-water marks come from
    quotas: tuple[ClassQuota, ...]  # what a build writes (with --allow-quota-decrease when given)
    guarantees: Guarantees = field(
        default_factory=Guarantees
    )  # §10: the tenants' guarantees resolved against `quotas`
    quota_warnings: tuple[Problem, ...] = ()  # R26 / M2: a quota kept at its high-water mark
    manager: ManagerPlan | None = None  # M2: a MultiKueue manager's block and its own nodes' quotas

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


def plan_cluster(
    loaded: LoadedProject,
    cluster: Cluster,
    lock: LockState,
    plan: PlanOptions,
    workers: Mapping[str, Sequence[ClassQuota]] | None = None,
) -> ClusterView:
    """Load, resolve and plan `cluster` as `taugen build` does (context/session.py asks, once
    per cluster); `workers` are a manager's workers' planned quotas (M2)."""
    say = plan.progress
    say(f"loading cluster {cluster.name}")
    inputs = load_cluster_inputs(loaded, cluster, plan.early)
    if plan.build:
        previous = lock.lock.clusters.get(cluster.name)
        check_fresh(cluster, inputs.inventory, previous, plan.now, plan.allow_stale, loaded.lock_path)
    say(f"resolving {'and compiling ' if plan.build else ''}cluster {cluster.name}")
    resolved = resolve(inputs)
    history = quota_history(cluster, lock, loaded.lock_path, cluster_folder(loaded, cluster))
    decrease = plan.allow_quota_decrease
    quotas, warnings = plan_quotas(resolved, history.marks, decrease, history.extra_marks)
    manager = None
    if workers is not None and (fleet := loaded.project.multikueue) is not None:  # M2
        own, _ = plan_quotas(resolved, {}, allow_decrease=True)
        manager = ManagerPlan(fleet, tuple(own))
        where = loaded.doc.at(["multikueue", "workers"])
        quotas, warnings = fleet_quotas(workers, history.marks, decrease, where, history.extra_marks)
    if plan.build:
        check_total(cluster, history, quotas, decrease)
    index = loaded.project.clusters.index(cluster)
    extra = check_extra(resolved, list(quotas[0].extra) if quotas else [], loaded.doc, index)  # R44
    if errors := [p for p in extra if p.severity == "error"]:
        raise InputError(errors)
    warnings = [*warnings, *extra]
    guarantees = plan_guarantees(cluster, quotas, loaded.doc, index)
    warnings += weight_warnings(cluster, loaded.doc, index)  # R49
    return ClusterView(
        loaded, cluster, inputs, resolved, history, tuple(quotas), guarantees, tuple(warnings), manager
    )
