"""Preflight's scheduler checks for a KAI cluster (SPEC §8): the class's nodes and the leaf Queue.

KAI has no flavors: a gpu-class is the pod's nodeSelector, so the check is that nodes carry it.
A Queue's quota is what it deserves, not a cap on eligibility: a run over quota is admitted
when GPUs are free and is the first reclaimed (preemptible, K4). Only `limit` is a hard cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taugen.api.kai.models import Queue, QueueResource
from taugen.core.quantity import Quantity
from taugen.load.inventory import GPU
from taugen.schedulers.kai.compile import leaf_queue
from taugen.schedulers.protocol import Check, Placeable

if TYPE_CHECKING:
    from taugen.engines.runs.resolution import RunContext


def kai_checks(context: RunContext, request: dict[str, Quantity]) -> Placeable:
    queues = context.state.tree.kai_queues()
    name = leaf_queue(context.tenant.namespace)
    leaf = queues.get(name)
    if leaf is None:
        return Placeable(
            [_class(context), Check("quota", False, f"no Queue {name} in the tree")], go_on=False
        )
    return Placeable([_class(context), _quota(context, leaf, request)], go_on=True)


def _class(context: RunContext) -> Check:
    gpu_class = context.policy.gpu_class
    if gpu_class is None:
        return Check("flavor", True, "CPU-only: no gpu-class nodeSelector, no topology (KAI has no flavors)")
    count = sum(n.gpu_class == gpu_class for n in context.state.resolved.nodes)
    if not count:
        return Check("flavor", False, f"no node carries tau.azure.com/gpu-class={gpu_class}")
    return Check("flavor", True, f"{count} nodes carry tau.azure.com/gpu-class={gpu_class} (nodeSelector)")


def _quota(context: RunContext, leaf: Queue, request: dict[str, Quantity]) -> Check:
    wanted = context.total_of(GPU)
    gpu = (leaf.spec.resources.gpu if leaf.spec and leaf.spec.resources else None) or QueueResource()
    gpus = float(wanted.value)
    where = f"Queue {leaf.metadata.name}: {GPU} {wanted}"
    limit = gpu.limit if gpu.limit is not None and gpu.limit >= 0 else None
    if limit is not None and gpus > limit:
        return Check("quota", False, f"{where} exceeds its limit {limit:g} (a hard cap)")
    deserved = gpu.quota if gpu.quota is not None else 0
    if deserved >= 0 and gpus > deserved:
        over = gpus - deserved
        return Check(
            "quota",
            True,
            f"{where} of quota {deserved:g}: {over:g} over quota, allowed while GPUs are free "
            "(over-quota work is reclaimed first)",
        )
    return Check("quota", True, f"{where} of quota {'unlimited' if deserved < 0 else f'{deserved:g}'}")
