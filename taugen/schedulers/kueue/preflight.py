"""Preflight's scheduler checks for a Kueue cluster (§7, T5, T8): the flavor and the quota.

A ResourceFlavor matches the class on tau.azure.com/gpu-class alone; the run's ClusterQueue (its
LocalQueue's, T5) covers the total request: its nominal quota, or in a cohort what it could use
with the cohort idle (T8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taugen.core.quantity import Quantity
from taugen.models.platform import DEFAULT_GPU_TAINTS, taint_text
from taugen.resolve.labels import GPU_CLASS
from taugen.schedulers.kueue.compiled import queue_of, sim_cohorts, sim_queues
from taugen.schedulers.kueue.flavors import CPU_FLAVOR
from taugen.schedulers.kueue.quota import QuotaTree, potential
from taugen.schedulers.kueue.units import quantity, units
from taugen.schedulers.protocol import Check, Placeable

if TYPE_CHECKING:
    from taugen.context.kueue_tree import CompiledQueue, Flavor, KueueTree
    from taugen.engines.runs.resolution import RunContext


def kueue_checks(context: RunContext, request: dict[str, Quantity]) -> Placeable:
    """§7: a flavor matching the class on its gpu-class label alone; nominal quota covers the run."""
    state = context.state
    tree = state.tree.kueue(state.cluster.clusterQueue)
    queue = queue_of(tree, context)
    flavor, check = _flavor(context, tree, queue)
    if flavor is None:
        return Placeable([check], go_on=False)
    return Placeable([check, _quota(context, tree, queue, flavor, request)], go_on=True)


def _flavor(context: RunContext, tree: KueueTree, queue: CompiledQueue) -> tuple[Flavor | None, Check]:
    gpu_class = context.policy.gpu_class
    if gpu_class is None:
        cpu = next((f for f in tree.flavors if f.name == CPU_FLAVOR), None)
        if cpu is None:
            return None, Check("flavor", False, f"no ResourceFlavor {CPU_FLAVOR} for CPU-only work (R23)")
        return cpu, Check("flavor", True, f"{CPU_FLAVOR} (CPU-only: not topology-aware, R23)")
    matching = [f for f in tree.flavors if f.node_labels.get(GPU_CLASS) == gpu_class]
    if not matching:
        return None, Check("flavor", False, f"no ResourceFlavor has nodeLabels {GPU_CLASS}={gpu_class}")
    queued = [f for f in matching if queue.flavor(f.name) is not None]
    chosen = (queued or matching)[0]
    taints = context.state.cluster.gpuNodeTaints
    tolerated = (
        "" if tuple(taints) == DEFAULT_GPU_TAINTS else f", tolerating {', '.join(map(taint_text, taints))}"
    )
    return chosen, Check("flavor", True, f"{chosen.name} (nodeLabels {GPU_CLASS}={gpu_class}{tolerated})")


def _quota(
    context: RunContext, tree: KueueTree, queue: CompiledQueue, flavor: Flavor, request: dict[str, Quantity]
) -> Check:
    quota = queue.flavor(flavor.name)
    if quota is None:
        return Check("quota", False, f"flavor {flavor.name} is not in ClusterQueue {queue.name}")
    # T8: in a cohort the queue may use what the others lend, within its borrowing limit: Kueue's
    # potentialAvailable, what it could use with nothing else admitted
    node = QuotaTree.of(sim_queues(tree), sim_cohorts(tree)).queues[queue.name] if queue.cohort else None
    order = {r: i for i, r in enumerate(queue.covered)}
    parts, short = [], []
    asked = {*request, *(context.leader_request or {})}
    if context.jobset:  # K6: the sum over the pod sets
        asked = {r for p in context.pod_sets for r in p.request}
    for resource in sorted(asked, key=lambda r: (order.get(r, len(order)), r)):
        wanted = context.total_of(resource)
        if resource not in order:
            short.append(f"{resource} is not covered by the ClusterQueue")
            continue
        nominal = quota.nominal.get(resource, Quantity.parse(0))
        if node is None:
            parts.append(f"{resource} {wanted} of {nominal}")
            if wanted.value > nominal.value:
                lacks = Quantity(wanted.value - nominal.value, wanted.format)
                short.append(f"{resource} {wanted} exceeds the nominal quota {nominal} (lacks {lacks})")
            continue
        need, most = units(resource, wanted), potential(node, (flavor.name, resource))
        usable = quantity(resource, most, nominal)
        parts.append(f"{resource} {wanted} of {usable} ({nominal} nominal)")
        if need > most:
            short.append(
                f"{resource} {wanted} exceeds the {usable} it could use with the cohort idle "
                f"({nominal} nominal; lacks {quantity(resource, need - most, nominal)})"
            )
    cohort = f" (cohort {queue.cohort})" if queue.cohort else ""
    where = f"ClusterQueue {queue.name}{cohort}, flavor {flavor.name}"
    if short:
        return Check("quota", False, f"{where}: {'; '.join(short)}")
    return Check("quota", True, f"{where}: {', '.join(parts)}")
