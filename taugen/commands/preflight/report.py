"""Preflight as text (for people) and JSON (for machines). It says "eligible", never more."""

from __future__ import annotations

import json
from typing import Any

from taugen.commands.preflight.check import Preflight
from taugen.core.choices import REPORT_FORMATS
from taugen.engines.runs.capacity import CapacityDomain
from taugen.engines.runs.resolution import RunContext
from taugen.models.run import Workload
from taugen.schedulers.registry import scheduler_of

FORMATS = REPORT_FORMATS
EPILOGUE = {
    True: "eligible: {scheduler} can admit the run once the capacity it needs is free; nothing is "
    "reserved before admission",
    False: "not eligible: as written, the run would stay pending",
}


def as_text(result: Preflight) -> str:
    context = result.context
    run, policy = context.run, context.policy
    lines = [
        f"preflight: run {run.metadata.name} in {run.metadata.namespace}, cluster "
        f"{context.state.cluster.name}: {result.verdict}",
        f"  policy    profile {context.entry.name}, tier {policy.priority_tier}, "
        f"gpu-class {policy.class_text or '(none: CPU-only)'}, topology {policy.topology}",
        f"  request   {_shape(context)}, each {_request(result)}"
        if not context.jobset
        else f"  request   {_pod_sets(context)}",
    ]
    lines += [f"  {'ok  ' if c.ok else 'FAIL'}  {c.id:<9} {c.message}" for c in result.checks]
    lines.append(
        EPILOGUE[result.eligible].format(scheduler=scheduler_of(context.state.cluster.scheduler).display_name)
    )
    return "\n".join(lines) + "\n"


def as_json(result: Preflight) -> str:
    context = result.context
    run = context.run
    data: dict[str, Any] = {
        "run": run.metadata.name,
        "namespace": run.metadata.namespace,
        "cluster": context.state.cluster.name,
        "profile": context.entry.name,
        "policy": context.policy.model_dump(mode="json"),
        "workers": run.workers,
        "request": {r: str(q) for r, q in result.request.items()},
        **({"podSets": _pod_sets_json(context)} if context.jobset else {}),
        "verdict": result.verdict,
        "eligible": result.eligible,
        "checks": [{"id": c.id, "ok": c.ok, "message": c.message} for c in result.checks],
        "domain": _domain(result.domain, context.group),
        "widerDomain": _domain(result.wider, context.group),  # reported, never used (§7)
    }
    return json.dumps(data, indent=2) + "\n"


def _shape(context: RunContext) -> str:
    run = context.run
    if run.workload == Workload.LEADERWORKERSET:
        return f"{run.replicas} replicas of {run.size} pods (each replica placed on its own, K5)"
    return f"{run.workers} workers"


def _pod_sets(context: RunContext) -> str:
    """K6: each pod set's pods and requests per pod."""
    return "; ".join(
        f"{p.name} {p.count} x {', '.join(f'{r} {q}' for r, q in p.request.items())}"
        for p in context.pod_sets
    )


def _pod_sets_json(context: RunContext) -> list[dict[str, Any]]:
    return [
        {"name": p.name, "pods": p.count, "request": {r: str(q) for r, q in p.request.items()}}
        for p in context.pod_sets
    ]


def _request(result: Preflight) -> str:
    return ", ".join(f"{r} {q}" for r, q in result.request.items())


def _domain(domain: CapacityDomain | None, workers: int) -> dict[str, Any] | None:
    if domain is None:
        return None
    fits = domain.ranks >= workers
    return {
        "role": "best" if fits else "largest",
        "level": domain.level,
        "name": domain.name,
        "path": list(domain.path),
        "ranks": domain.ranks,
        "readyNodes": domain.ready,
        "notReadyNodes": domain.not_ready,
        **({"excludedNodes": domain.filtered} if domain.filtered else {}),  # taints, node affinity
        "headroom" if fits else "lacks": abs(domain.ranks - workers),
    }
