"""`taugen explain tenant` as text and JSON."""

from __future__ import annotations

from typing import Any

from taugen.commands.explain.tenant import TenantExplanation
from taugen.core.jsontext import dumps


def tenant_json(found: TenantExplanation) -> str:
    return dumps(
        {
            "cluster": found.cluster,
            "namespace": found.namespace,
            "localQueue": found.local_queue,
            "queue": found.queue,
            "cohort": found.cohort,
            "weight": found.weight,
            **({"preemption": found.preemption} if found.preemption is not None else {}),
            **({"flavorFungibility": found.fungibility.as_spec()} if found.fungibility is not None else {}),
            "classes": [
                {
                    "gpuClass": c.gpu_class,
                    "classQuota": c.quota,
                    "inventoryGpus": c.observed,
                    "readySlots": c.ready_slots,
                    "guaranteed": c.guaranteed,
                    "slots": c.slots,
                    "borrowable": c.borrowable,
                    "shared": c.shared,
                    "derivation": list(c.steps),
                }
                for c in found.classes
            ],
        }
    )


def tenant_text(found: TenantExplanation) -> str:
    cohort = f" in cohort {found.cohort}" if found.cohort else ""
    lines = [
        f"tenant {found.namespace} of cluster {found.cluster}: LocalQueue {found.local_queue} -> "
        f"{found.queue}{cohort}, weight {found.weight}"
    ]
    if found.preemption is not None:
        said = "the tenant's own (R48)" if found.own_preemption else "T2's"
        lines.append(f"  preemption ({said}): {_preemption(found.preemption)}")
    if (own := found.fungibility) is not None:
        policies = [
            f"whenCanBorrow {own.can_borrow}{'' if own.whenCanBorrow else ' (Kueue default)'}",
            f"whenCanPreempt {own.can_preempt}{'' if own.whenCanPreempt else ' (Kueue default)'}",
            *([f"preference {own.preference}"] if own.preference else []),
        ]
        lines.append(f"  flavorFungibility (the tenant's own (R47)): {', '.join(policies)}")
    for c in found.classes:
        lines.append(
            f"  {c.gpu_class}: guaranteed {c.guaranteed} GPUs, {c.slots} slots; may borrow {c.borrowable}; "
            f"shared queue {c.shared}"
        )
        lines += [f"    {step}" for step in c.steps]
    return "\n".join(lines) + "\n"


def _preemption(spec: dict[str, Any]) -> str:
    borrow = spec["borrowWithinCohort"]
    threshold = borrow.get("maxPriorityThreshold")
    at = f" up to priority {threshold}" if threshold is not None else ""
    return (
        f"reclaimWithinCohort {spec['reclaimWithinCohort']}, borrowWithinCohort {borrow['policy']}{at}, "
        f"withinClusterQueue {spec['withinClusterQueue']}"
    )
