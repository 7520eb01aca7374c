"""Resolve a run against its project (§7): cluster, tenant, catalog entry and policy."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from taugen.compile.slot import SLOT
from taugen.context.catalog import CatalogEntry
from taugen.context.session import ProjectContext, open_project
from taugen.core.errors import InputError, Problem
from taugen.core.quantity import Quantity
from taugen.core.suggest import closest
from taugen.engines.runs.covered import check_covered
from taugen.engines.runs.load import LoadedRun, load_run
from taugen.engines.runs.podsets import PodSet, pod_sets, slice_layers
from taugen.engines.runs.policy import deprecation, not_ready, resolve_policy
from taugen.engines.runs.shape import check_shape, is_multi_node
from taugen.engines.runs.state import ClusterState, cluster_state, require_fresh
from taugen.models.profile import Policy
from taugen.models.project import Cluster, Tenant
from taugen.models.run import Run, Workload
from taugen.models.tiers import class_name
from taugen.resolve.levels import Levels, levels_of


@dataclass(frozen=True)
class RunContext:
    loaded: LoadedRun
    state: ClusterState
    tenant: Tenant
    entry: CatalogEntry
    policy: Policy
    not_ready: str | None  # why the policy cannot be placed (R30), None when ready
    warnings: tuple[Problem, ...]

    @property
    def run(self) -> Run:
        return self.loaded.run

    @property
    def multi_node(self) -> bool:
        """Multi-node torchrun: a direct Job with more than one rank (§7)."""
        return is_multi_node(self.loaded)

    @property
    def host_slot(self) -> bool:
        """Every rank requests one torchrun-host-slot (only GPU flavors have slot quota)."""
        return self.multi_node and self.policy.gpu_class is not None

    @property
    def request(self) -> dict[str, Quantity]:
        """Per worker: the run's resources, and the torchrun-host-slot when it takes one (§7)."""
        found = dict(self.run.resources)
        if self.host_slot:
            found[SLOT] = Quantity.parse(1)
        return found

    @property
    def jobset(self) -> bool:
        return self.run.workload == Workload.JOBSET

    @property
    def pod_sets(self) -> tuple[PodSet, ...]:
        """A JobSet run's pod sets, one per job (K6); () for a Job or a LeaderWorkerSet."""
        return pod_sets(self.run, self.policy, self.levels)

    @property
    def group(self) -> int:
        """Pods that must share one domain: a Job's ranks, a LeaderWorkerSet replica's pods (K5)."""
        run = self.run
        return run.size if run.workload == Workload.LEADERWORKERSET else run.workers

    @property
    def pods(self) -> int:
        """Pods the run asks quota for: every rank, or every replica's pods (K5)."""
        run = self.run
        if self.jobset:
            return sum(p.count for p in self.pod_sets)
        return run.replicas * run.size if run.workload == Workload.LEADERWORKERSET else run.workers

    @property
    def levels(self) -> Levels:
        """The cluster's Topology levels (R42)."""
        return levels_of(self.state.cluster.topology)

    @property
    def level(self) -> str | None:
        """The Topology level the policy requires; None for unconstrained or CPU-only work."""
        return self.levels.required(self.policy.topology) if self.policy.gpu_class else None

    @property
    def preferred_level(self) -> str | None:
        """The level a prefer-<level> policy tries first (Kueue's podset-preferred-topology)."""
        return self.levels.preferred(self.policy.topology) if self.policy.gpu_class else None

    @property
    def slice_layers(self) -> tuple[tuple[str, int], ...]:
        """Each slice layer's level label and size, outermost first (S3); (): no slices."""
        return slice_layers(self.run.policy.slice, self.policy.gpu_class, self.levels)

    @property
    def leader_request(self) -> dict[str, Quantity] | None:
        """K5: a LeaderWorkerSet leader's own requests; None when it asks what a worker does."""
        leader = self.run.leader
        return None if leader is None else dict(leader.resources)

    def total_of(self, resource: str) -> Quantity:
        """What every pod asks of `resource` summed (the quota asked); K5: with its own
        requests, each replica's leader asks those instead of a worker's."""
        if self.jobset:
            return _sum_of(self.pod_sets, resource)
        worker = self.request.get(resource, Quantity.parse(0))
        leader = self.leader_request
        if leader is None:
            return Quantity(worker.value * self.pods, worker.format)
        own = leader.get(resource, Quantity.parse(0))
        replicas = self.run.replicas
        value = worker.value * (self.pods - replicas) + own.value * replicas
        return Quantity(value, worker.format if resource in self.request else own.format)

    @property
    def priority_class(self) -> str:
        return class_name(self.policy.priority_tier)  # R20, R21, R50: one name for both classes

    @property
    def priority(self) -> int:
        """The value of the run's tier in the project (R50): what Kueue orders and preempts by."""
        return self.state.loaded.project.tiers.values[self.policy.priority_tier]


def _sum_of(sets: tuple[PodSet, ...], resource: str) -> Quantity:
    asked = [(p.count, p.request[resource]) for p in sets if resource in p.request]
    value = sum((q.value * count for count, q in asked), Fraction(0))
    return Quantity(value, asked[0][1].format if asked else "DecimalSI")


def resolve_run(run_file: Path, project_file: Path) -> RunContext:
    """Everything render and preflight need; InputError (exit 2) when the run cannot be rendered."""
    loaded_run = load_run(run_file)
    project = open_project(project_file)
    cluster = _cluster(project, loaded_run)
    tenant = run_tenant(cluster, loaded_run)
    state = cluster_state(project, cluster)
    require_fresh(state)
    check_covered(loaded_run, state)  # R45
    entry = catalog_entry(state, loaded_run)
    policy = resolve_policy(loaded_run, entry, state)
    check_shape(loaded_run, policy, cluster)
    reason = not_ready(loaded_run, entry, policy, state)
    warnings = deprecation(loaded_run, state.catalog)
    return RunContext(loaded_run, state, tenant, entry, policy, reason, tuple(warnings))


def require_ready(context: RunContext) -> None:
    """R32: a profile whose catalog entry is not ready is never rendered."""
    if context.not_ready is not None:
        name = context.state.cluster.name
        raise InputError(
            [
                context.loaded.doc.at(["profile"]).problem(
                    "R32",
                    f"profile {context.entry.name} is not ready in cluster {name}: {context.not_ready}",
                    f"choose a ready profile (`taugen profiles --cluster {name}`); "
                    "`taugen preflight` says what is missing",
                )
            ]
        )


def _cluster(project: ProjectContext, loaded: LoadedRun) -> Cluster:
    wanted = loaded.run.cluster
    where = loaded.doc.at(["cluster"]) if wanted else loaded.doc.at(["metadata"], key=True)
    return project.pick(wanted, where)


def run_tenant(cluster: Cluster, loaded: LoadedRun) -> Tenant:
    namespace = loaded.run.metadata.namespace
    found = [t for t in cluster.tenants if t.namespace == namespace]
    if found:
        return found[0]
    tenants = ", ".join(t.namespace for t in cluster.tenants)
    raise InputError(
        [
            loaded.doc.at(["metadata", "namespace"]).problem(
                "§7",
                f"namespace {namespace} is not a tenant of cluster {cluster.name}: it has no LocalQueue "
                "there and the ClusterQueue's namespaceSelector would never admit it",
                f"use a tenant namespace ({tenants}), or add it to the cluster's tenants and build",
            )
        ]
    )


def catalog_entry(state: ClusterState, loaded: LoadedRun) -> CatalogEntry:
    entries = state.catalog.entries
    name = loaded.run.profile
    if name in entries:
        return entries[name]
    close = closest(name, entries)
    hint = f"did you mean {close!r}?" if close else f"profiles: {', '.join(sorted(entries))}"
    message = f"profile {name!r} is not in the catalog of cluster {state.cluster.name}"
    raise InputError([loaded.doc.at(["profile"]).problem("R30", message, hint)])
