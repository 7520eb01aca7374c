"""Test helper: the ClusterQueues, Cohorts and workloads of a fair-sharing vector
(fair-preemption-vectors.yaml, fair-schedule-vectors.yaml) in the simulation core's terms."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.core.quantity import Quantity
from taugen.engines.admission.model import SimFlavor, SimInput, SimRun
from taugen.engines.admission.preemption import Holder
from taugen.schedulers.kueue.quota_model import Fungibility, PreemptionPolicy, Quota, SimCohort, SimQueue
from taugen.schedulers.kueue.units import as_units, units

HERE = Path(__file__).resolve().parent
FLAVOR = "default"
ADMITTED_AT = "2026-01-01T00:00:00+00:00"
CREATED_AT = "2026-01-01T00:01:00+00:00"


def load(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the named queue sets, the vectors) of a vector file next to this one."""
    docs = [doc for doc in yaml.safe_load_all((HERE / name).read_text()) if doc]
    return docs[0], docs[1:]


def _quota(resource: str, raw: Any) -> Quota:
    """A nominal quota, or {nominal, borrowingLimit, lendingLimit}."""
    raw = raw if isinstance(raw, dict) else {"nominal": raw}

    def amount(key: str) -> int | None:
        return units(resource, Quantity.parse(raw[key])) if key in raw else None

    nominal = amount("nominal")
    assert nominal is not None
    return Quota(nominal, amount("borrowingLimit"), amount("lendingLimit"))


def quotas(raw: Mapping[str, Any]) -> dict[tuple[str, str], Quota]:
    """`resources` are the default flavor's; `flavors` name theirs: {flavor: {res: quota}}."""
    flavors = {**({FLAVOR: raw["resources"]} if "resources" in raw else {}), **raw.get("flavors", {})}
    return {(f, r): _quota(r, q) for f, resources in flavors.items() for r, q in resources.items()}


def queue(raw: Mapping[str, Any], weights: Mapping[str, float]) -> SimQueue:
    policy = raw.get("preemption", {})
    preemption = PreemptionPolicy(
        policy.get("reclaimWithinCohort", "Never"),
        policy.get("borrowWithinCohort", "Never"),
        policy.get("maxPriorityThreshold"),
        policy.get("withinClusterQueue", "Never"),
    )
    own = raw.get("flavorFungibility", {})
    fungibility = Fungibility(
        own.get("whenCanBorrow", "MayStopSearch"),
        own.get("whenCanPreempt", "TryNextFlavor"),
        own.get("preference"),
    )
    weight = float(weights.get(raw["name"], raw.get("weight", 1)))
    return SimQueue(raw["name"], quotas(raw), raw.get("cohort"), preemption, fungibility, weight)


def queues_of(case: Mapping[str, Any], sets: Mapping[str, Any]) -> tuple[SimQueue, ...]:
    found = case["queues"]
    found = sets[found] if isinstance(found, str) else found
    found = [q for item in found for q in (sets[item] if isinstance(item, str) else [item])]
    return tuple(queue(q, case.get("weights", {})) for q in found)


def cohorts_of(case: Mapping[str, Any]) -> tuple[SimCohort, ...]:
    return tuple(
        SimCohort(c["name"], c.get("parent"), quotas(c), float(c.get("weight", 1)))
        for c in case.get("cohorts", [])
    )


def admitted_of(case: Mapping[str, Any]) -> list[dict[str, Any]]:
    """`units` ({queue: n}: <queue>1..<queue>n of 1 cpu) and then `admitted`."""
    found = [
        {"name": f"{q}{i}", "queue": q, "usage": {"cpu": "1"}}
        for q, n in case.get("units", {}).items()
        for i in range(1, n + 1)
    ]
    return found + list(case.get("admitted", []))


def usage(raw: Mapping[str, Any], key: str) -> dict[tuple[str, str], int]:
    flavor = raw.get("flavor", FLAVOR)
    return {(flavor, r): v for r, v in as_units(_resources(raw[key])).items()}


def _resources(raw: Mapping[str, Any]) -> dict[str, Quantity]:
    return {r: Quantity.parse(v) for r, v in raw.items()}


def holder(raw: Mapping[str, Any]) -> Holder:
    return Holder(
        raw["name"],
        raw["queue"],
        raw.get("priority", 0),
        raw.get("createdAt", ADMITTED_AT),
        raw.get("admittedAt", ADMITTED_AT),
        usage(raw, "usage"),
    )


def sim_run(raw: Mapping[str, Any], admitted: bool) -> SimRun:
    """One workload as a run of one pod on a flavor with no topology."""
    return SimRun(
        key=f"ns/{raw['name']}",
        priority=raw.get("priority", 0),
        created=(raw.get("createdAt") or (ADMITTED_AT if admitted else CREATED_AT)).replace("Z", "+00:00"),
        flavor=raw.get("flavor", raw.get("flavors", [FLAVOR])[0]),
        flavors=tuple(raw.get("flavors", ())),
        count=1,
        per_pod=as_units(_resources(raw["usage" if admitted else "requests"])),
        mode="unconstrained",
        level=None,
        plan={} if admitted else None,
        queue=raw["queue"],
        admitted_at=(raw.get("admittedAt") or ADMITTED_AT).replace("Z", "+00:00") if admitted else "",
    )


def sim_input(
    case: Mapping[str, Any], sets: Mapping[str, Any], strategies: tuple[str, ...] | None
) -> SimInput:
    """A whole scheduling vector as the simulator's input; `strategies` None: fair sharing off."""
    queues = queues_of(case, sets)
    runs = [sim_run(r, True) for r in admitted_of(case)] + [sim_run(r, False) for r in case["incoming"]]
    used = {FLAVOR} | {f for q in queues for f, _ in q.quotas} | {r.flavor or "" for r in runs}
    used |= {f for r in runs for f in r.flavors}
    return SimInput(
        "none",
        (),
        tuple(SimFlavor(f, {}, tas=False) for f in sorted(used)),
        (),
        tuple(runs),
        queues=queues,
        cohorts=cohorts_of(case),
        fair_sharing=strategies,
    )
