"""`taugen preflight`: is a run eligible in its cluster, from the compiled tree and the inventory?

Eligible only (seed 000): capacity is reserved at admission, so a yes can change before then.
Checks: the profile is ready (R30); a ResourceFlavor matches the class on
tau.azure.com/gpu-class alone; the ClusterQueue's nominal quota covers the total request; one
domain at the required level holds every rank (no fallback to a wider level, §7).
"""

from __future__ import annotations

from dataclasses import dataclass

from taugen.backends.kueue import CPU_FLAVOR
from taugen.quantity import Quantity
from taugen.resolve.labels import GPU_CLASS
from taugen.runs.capacity import Domain
from taugen.runs.context import RunContext
from taugen.runs.topology import TopologyFit, fit_topology
from taugen.runs.tree import CompiledTree, Flavor, read_tree


@dataclass(frozen=True)
class Check:
    id: str  # profile | flavor | quota | topology
    ok: bool
    message: str


@dataclass(frozen=True)
class Preflight:
    context: RunContext
    checks: tuple[Check, ...]
    request: dict[str, Quantity]  # per worker, the slot included
    domain: Domain | None = None  # the best fit when one holds the run, else the largest
    wider: Domain | None = None  # a wider level's domain that would hold it (never used)

    @property
    def eligible(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def verdict(self) -> str:
        return "eligible" if self.eligible else "not eligible"


def preflight(context: RunContext) -> Preflight:
    state = context.state
    tree = read_tree(state.folder, state.cluster.clusterQueue)
    request = context.request
    checks = [_profile(context)]
    flavor = _flavor(context, tree)
    checks.append(flavor[1])
    if flavor[0] is None:
        return Preflight(context, tuple(checks), request)
    checks.append(_quota(context, tree, flavor[0], request))
    if context.policy.gpu_class is None:
        return Preflight(context, tuple(checks), request)
    fit: TopologyFit = fit_topology(context, request)
    checks.append(Check("topology", fit.ok, fit.message))
    return Preflight(context, tuple(checks), request, fit.domain, fit.wider)


def _profile(context: RunContext) -> Check:
    cluster = context.state.cluster.name
    if context.not_ready is None:
        return Check("profile", True, f"{context.entry.name} is ready in cluster {cluster}")
    return Check("profile", False, f"{context.entry.name} is not ready: {context.not_ready}")


def _flavor(context: RunContext, tree: CompiledTree) -> tuple[Flavor | None, Check]:
    gpu_class = context.policy.gpu_class
    if gpu_class is None:
        cpu = next((f for f in tree.flavors if f.name == CPU_FLAVOR), None)
        if cpu is None:
            return None, Check("flavor", False, f"no ResourceFlavor {CPU_FLAVOR} for CPU-only work (R23)")
        return cpu, Check("flavor", True, f"{CPU_FLAVOR} (CPU-only: not topology-aware, R23)")
    matching = [f for f in tree.flavors if f.node_labels.get(GPU_CLASS) == gpu_class]
    if not matching:
        return None, Check("flavor", False, f"no ResourceFlavor has nodeLabels {GPU_CLASS}={gpu_class}")
    queued = [f for f in matching if tree.queue.flavor(f.name) is not None]
    chosen = (queued or matching)[0]
    return chosen, Check("flavor", True, f"{chosen.name} (nodeLabels {GPU_CLASS}={gpu_class})")


def _quota(context: RunContext, tree: CompiledTree, flavor: Flavor, request: dict[str, Quantity]) -> Check:
    queue = tree.queue
    quota = queue.flavor(flavor.name)
    if quota is None:
        return Check("quota", False, f"flavor {flavor.name} is not in ClusterQueue {queue.name}")
    workers = context.run.workers
    order = {r: i for i, r in enumerate(queue.covered)}
    parts, short = [], []
    for resource in sorted(request, key=lambda r: (order.get(r, len(order)), r)):
        total = Quantity(request[resource].value * workers, request[resource].format)
        if resource not in order:
            short.append(f"{resource} is not covered by the ClusterQueue")
            continue
        nominal = quota.nominal.get(resource, Quantity.parse(0))
        parts.append(f"{resource} {total} of {nominal}")
        if total.value > nominal.value:
            lacks = Quantity(total.value - nominal.value, total.format)
            short.append(f"{resource} {total} exceeds the nominal quota {nominal} (lacks {lacks})")
    where = f"ClusterQueue {queue.name}, flavor {flavor.name}"
    if short:
        return Check("quota", False, f"{where}: {'; '.join(short)}")
    return Check("quota", True, f"{where}: {', '.join(parts)}")
