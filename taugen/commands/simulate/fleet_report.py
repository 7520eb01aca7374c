"""`taugen simulate --fleet` as text and JSON (M4): per run, the worker that admits it and its
placement there, or why it stays pending (the manager's reason, or each worker's)."""

from __future__ import annotations

import json
from typing import Any

from taugen.commands.simulate.fleet import FleetRun, FleetSimulation
from taugen.models.base import API_VERSION


def as_json(sim: FleetSimulation) -> str:
    return json.dumps(as_dict(sim), indent=2, ensure_ascii=False) + "\n"


def as_dict(sim: FleetSimulation) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "kind": "FleetSimulationResult",
        "manager": sim.manager,
        "workers": list(sim.workers),
        "runs": [_run(r) for r in sim.runs],
        "notes": list(sim.notes),
    }


def _run(run: FleetRun) -> dict[str, Any]:
    namespace, name = run.key.split("/", 1)
    result = run.result
    return {
        "namespace": namespace,
        "name": name,
        "status": run.status,
        "worker": run.worker,
        "flavor": result.flavor,
        "reason": result.reason or None,
        "hosts": [{"host": h, "count": n} for h, n in result.hosts()],
        "ranks": [{"rank": i, "host": h} for i, h in enumerate(result.ranks) if h is not None],
        "workers": [{"worker": w, "reason": why} for w, why in run.refused],
    }


def as_text(sim: FleetSimulation) -> str:
    admitted = sum(r.status == "admitted" for r in sim.runs)
    lines = [
        f"simulate --fleet: manager {sim.manager}, workers {', '.join(sim.workers)}, "
        f"{len(sim.runs)} runs: {admitted} admitted, {len(sim.runs) - admitted} pending"
    ]
    for run in sim.runs:
        lines += _lines(run)
    lines += [f"note: {n}" for n in sim.notes]
    return "\n".join(lines) + "\n"


def _lines(run: FleetRun) -> list[str]:
    result = run.result
    if run.worker is not None:
        head = f"  admitted  {run.key}  on {run.worker} ({result.flavor or 'no flavor'})"
        hosts = result.hosts()
        if not hosts:
            return [f"{head}  not topology-aware: kube-scheduler picks the nodes"]
        ranks = ", ".join(f"{i}={h}" for i, h in enumerate(result.ranks))
        return [
            head,
            "            hosts  " + ", ".join(f"{h} x{n}" for h, n in hosts),
            f"            ranks  {ranks}",
        ]
    lines = [f"  pending   {run.key}", f"            {result.reason}"]
    return lines + [f"            {w}: {why}" for w, why in run.refused]
