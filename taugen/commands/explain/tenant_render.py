"""`taugen explain tenant` as text and JSON."""

from __future__ import annotations

from typing import Any

from taugen.commands.explain.tenant import GroupLevel, TenantExplanation
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
            **({"groups": [_level_json(g) for g in found.path]} if found.path else {}),
            **({"flavorFungibility": found.fungibility.as_spec()} if found.fungibility is not None else {}),
            **({"flavorOrder": list(found.flavor_order)} if found.flavor_order else {}),
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
    if found.path:
        chain = " -> ".join([*(f"{g.cohort} (group {g.group})" for g in found.path), found.path[-1].parent])
        lines.append(f"  cohorts (R51): {chain} (the cluster's, T1)")
        lines += [f"  {_level_text(g)}" for g in found.path]
    if (own := found.fungibility) is not None:
        policies = [
            f"whenCanBorrow {own.can_borrow}{'' if own.whenCanBorrow else ' (Kueue default)'}",
            f"whenCanPreempt {own.can_preempt}{'' if own.whenCanPreempt else ' (Kueue default)'}",
            *([f"preference {own.preference}"] if own.preference else []),
        ]
        lines.append(f"  flavorFungibility (the tenant's own (R47)): {', '.join(policies)}")
    if found.flavor_order:
        made = "; ".join(
            f"profile {name} lists {', '.join(classes)}" for name, classes in found.fallback_lists
        )
        lines.append(
            f"  flavor order (R47): {', '.join(found.flavor_order)}: Kueue tries them in this order ({made})"
        )
    for c in found.classes:
        lines.append(
            f"  {c.gpu_class}: guaranteed {c.guaranteed} GPUs, {c.slots} slots; may borrow {c.borrowable}; "
            f"shared queue {c.shared}"
        )
        lines += [f"    {step}" for step in c.steps]
    return "\n".join(lines) + "\n"


def _level_json(level: GroupLevel) -> dict[str, Any]:
    return {
        "group": level.group,
        "cohort": level.cohort,
        "parent": level.parent,
        "classes": [
            {
                "gpuClass": c,
                "guaranteed": guaranteed,
                "own": own,
                **({"borrowingLimit": borrow} if borrow is not None else {}),
                **({"lendingLimit": lend} if lend is not None else {}),
            }
            for c, guaranteed, own, borrow, lend in level.classes
        ],
    }


def _level_text(level: GroupLevel) -> str:
    held = []
    for c, guaranteed, own, borrow, lend in level.classes:
        words = [f"guaranteed {guaranteed} (its own {own})" if guaranteed is not None else "no guarantee"]
        words += [f"borrowingLimit {borrow}"] if borrow is not None else []
        words += [f"lendingLimit {lend}"] if lend is not None else []
        held.append(f"{c} {', '.join(words)}")
    return f"group {level.group}: Cohort {level.cohort}, parent {level.parent}; " + (
        "; ".join(held) or "no quota of its own, no limits"
    )


def _preemption(spec: dict[str, Any]) -> str:
    borrow = spec["borrowWithinCohort"]
    threshold = borrow.get("maxPriorityThreshold")
    at = f" up to priority {threshold}" if threshold is not None else ""
    return (
        f"reclaimWithinCohort {spec['reclaimWithinCohort']}, borrowWithinCohort {borrow['policy']}{at}, "
        f"withinClusterQueue {spec['withinClusterQueue']}"
    )
