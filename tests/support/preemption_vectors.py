"""Test helper: feed a quota and preemption vector (tests/data/preemption-vectors.yaml,
tests/data/scheduler-vectors.yaml) to the simulation core, and turn its answer back into the
vector's `expected` shape."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.core.quantity import Quantity
from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import SimFlavor, SimInput, SimPodSet, SimRun
from taugen.engines.placement.tree import FilterTaint
from taugen.schedulers.kueue.quota_model import Fungibility, PreemptionPolicy, Quota, SimCohort, SimQueue
from taugen.schedulers.kueue.units import as_units, units

VECTORS = Path(__file__).resolve().parents[1] / "data" / "preemption-vectors.yaml"
SCHEDULER_VECTORS = VECTORS.with_name("scheduler-vectors.yaml")
FLAVOR = "default"
ADMITTED_AT = "2026-01-01T00:00:00+00:00"
CREATED_AT = "2026-01-01T00:01:00+00:00"


def load_vectors(path: Path = VECTORS) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the named queue sets, the vectors)."""
    docs = [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return docs[0], docs[1:]


def _amount(resource: str, value: Any) -> int:
    return units(resource, Quantity.parse(value))


def _quota(resource: str, raw: Mapping[str, Any]) -> Quota:
    limits = {k: _amount(resource, raw[k]) if k in raw else None for k in ("borrowingLimit", "lendingLimit")}
    return Quota(_amount(resource, raw["nominal"]), limits["borrowingLimit"], limits["lendingLimit"])


def _quotas(raw: Mapping[str, Any]) -> dict[tuple[str, str], Quota]:
    """`resources` are the default flavor's; `flavors` name theirs: {flavor: {res: quota}}."""
    flavors = {FLAVOR: raw.get("resources", {}), **raw.get("flavors", {})}
    return {(f, r): _quota(r, q) for f, resources in flavors.items() for r, q in resources.items()}


def _queue(raw: Mapping[str, Any]) -> SimQueue:
    quotas = _quotas(raw)
    policy = raw.get("preemption", {})
    preemption = PreemptionPolicy(
        policy.get("reclaimWithinCohort", "Never"),
        policy.get("borrowWithinCohort", "Never"),
        policy.get("maxPriorityThreshold"),
        policy.get("withinClusterQueue", "Never"),
    )
    own = raw.get("flavorFungibility", {})  # R47: Kueue's defaults where the case sets none
    fungibility = Fungibility(
        own.get("whenCanBorrow", "MayStopSearch"),
        own.get("whenCanPreempt", "TryNextFlavor"),
        own.get("preference"),
    )
    return SimQueue(raw["name"], quotas, raw.get("cohort"), preemption, fungibility)


def _time(text: str | None, default: str) -> str:
    return text.replace("Z", "+00:00") if text else default


def _pod_sets(raw: Mapping[str, Any]) -> tuple[SimPodSet, ...]:
    """R47: `podSets` of a run (name, count, requests per pod), the first the run's own."""
    return tuple(
        SimPodSet(
            p["name"],
            p.get("count", 1),
            as_units({r: Quantity.parse(v) for r, v in p["requests"].items()}),
            "unconstrained",
            None,
        )
        for p in raw.get("podSets", [])
    )


def _run(raw: Mapping[str, Any], admitted: bool) -> SimRun:
    first, *more = _pod_sets(raw) or (None,)
    requests = raw["usage" if admitted else "requests"] if first is None else {}
    resources = {r: Quantity.parse(v) for r, v in requests.items()}
    return SimRun(
        key=f"ns/{raw['name']}",
        priority=raw["priority"],
        created=_time(raw.get("createdAt"), ADMITTED_AT if admitted else CREATED_AT),
        flavor=raw.get("flavor", raw.get("flavors", [FLAVOR])[0]),
        flavors=tuple(raw.get("flavors", ())),  # R47: the queue's flavors, in its order
        count=1 if first is None else first.count,
        per_pod=as_units(resources) if first is None else first.per_pod,
        name="" if first is None else first.name,
        more=tuple(more),
        mode="unconstrained",
        level=None,
        plan={} if admitted else None,
        queue=raw["queue"],
        admitted_at=_time(raw.get("admittedAt"), ADMITTED_AT) if admitted else "",
    )


def _taints(case: Mapping[str, Any], flavor: str) -> tuple[FilterTaint, ...]:
    """R47: `flavorTaints`: a ResourceFlavor's spec.nodeTaints, {flavor: [{key, value, effect}]}."""
    return tuple(
        FilterTaint(t["key"], t.get("value", ""), t["effect"])
        for t in case.get("flavorTaints", {}).get(flavor, [])
    )


def run_vector(case: Mapping[str, Any], sets: Mapping[str, Any]) -> dict[str, Any]:
    queues = case["queues"]
    queues = sets[queues] if isinstance(queues, str) else queues
    # a list may name sets among its ClusterQueues (TestSchedule's queues plus a case's own)
    queues = [q for item in queues for q in (sets[item] if isinstance(item, str) else [item])]
    cohorts = tuple(SimCohort(c["name"], c.get("parent"), _quotas(c)) for c in case.get("cohorts", []))
    runs = [_run(r, True) for r in case.get("admitted", [])] + [_run(r, False) for r in case["incoming"]]
    used = {FLAVOR} | {f for q in queues for f in q.get("flavors", {})} | {r.flavor or "" for r in runs}
    used |= {f for r in runs for f in r.flavors}
    flavors = sorted(used - set(case.get("absentFlavors", [])))
    source = SimInput(
        "none",
        (),
        tuple(SimFlavor(f, {}, tas=False, taints=_taints(case, f)) for f in flavors),
        (),
        tuple(runs),
        queues=tuple(_queue(q) for q in queues),
        cohorts=cohorts,
    )
    result = simulate(source, case.get("cycles"))
    incoming = {f"ns/{r['name']}" for r in case["incoming"]}
    name = {r.key: r.key.split("/", 1)[1] for r in runs}
    found = {
        "status": {name[r.key]: r.status for r in result.runs if r.key in incoming},
        "preempted": {name[v.key]: v.reason for r in result.runs for v in r.victims},
    }
    if "flavors" in case["expected"]:  # R47: the flavor the assigner chose among `flavors`
        found["flavors"] = {
            name[r.key]: r.flavor for r in result.runs if name[r.key] in case["expected"]["flavors"]
        }
    return found
