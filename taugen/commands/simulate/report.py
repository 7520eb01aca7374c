"""A simulation as text (for people) and JSON (for machines and the report page) (S6).

The JSON shape is stable (`kind: SimulationResult`, documented in the README): per run its
status, flavor, reason, hosts with counts and the rank -> host table; totals per flavor.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, get_args

from taugen.core.choices import REPORT_FORMATS
from taugen.core.timestamps import utc_text
from taugen.engines.admission.model import RunResult, SimResult, SimRun, Status
from taugen.engines.admission.project import Simulation
from taugen.models.base import API_VERSION

FORMATS = REPORT_FORMATS


def as_json(sim: Simulation) -> str:
    return json.dumps(as_dict(sim), indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def as_dict(sim: Simulation) -> dict[str, Any]:
    runs = {r.key: r for r in sim.source.runs}
    return {
        "apiVersion": API_VERSION,
        "kind": "SimulationResult",
        "cluster": sim.cluster,
        "runs": [_run(runs[r.key], r, sim.result.preemption) for r in sim.result.runs],
        "totals": [
            {"flavor": t.flavor, "gpus": {"requested": t.requested, "admitted": t.admitted, "free": t.free}}
            for t in sim.result.totals
        ],
        "cycles": {"ran": sim.result.cycles, "limit": sim.result.limit, "cutOff": list(sim.result.cut_off)},
        "notes": list(sim.result.notes),
        **_fair_sharing(sim.result),
    }


def _fair_sharing(result: SimResult) -> dict[str, Any]:
    """R49: only when the cluster's Kueue is recorded with fair sharing on (else as before):
    whether it decided anything (a cohort tree: order and preemption), and its strategies."""
    if result.fair_sharing is None:
        return {}
    return {"fairSharing": {"applied": result.preemption, "preemptionStrategies": list(result.fair_sharing)}}


def _run(run: SimRun, result: RunResult, cohort: bool) -> dict[str, Any]:
    """On a cohort (T8) a run also names its ClusterQueue and the runs it preempted."""
    namespace, name = result.key.split("/", 1)
    found: dict[str, Any] = {
        "namespace": namespace,
        "name": name,
        "status": result.status,
        "flavor": result.flavor,
        "priority": run.priority,
        "createdAt": utc_text(datetime.fromisoformat(run.created)) if run.created else "",
        "pods": run.pods,
        "reason": result.reason or None,
        "hosts": [{"host": h, "count": n} for h, n in result.hosts()],
        "ranks": [{"rank": i, "host": h} for i, h in enumerate(result.ranks) if h is not None],
        "replaced": list(result.replaced),
    }
    if run.more:  # K6: several pod sets; a Job's or a LeaderWorkerSet's output is as before
        found["podSets"] = [
            {"name": name, "pods": count, "hosts": [{"host": h, "count": n} for h, n in hosts]}
            for name, count, hosts in pod_set_hosts(run, result)
        ]
        for entry, flavor in zip(found["podSets"], result.pod_set_flavors, strict=False):
            entry["flavor"] = flavor  # R47: fallback classes, a flavor per pod set
    if cohort:
        found["clusterQueue"] = run.queue
        found["preempted"] = [{"run": v.key, "reason": v.reason} for v in result.victims]
    return found


def pod_set_hosts(run: SimRun, result: RunResult) -> list[tuple[str, int, list[tuple[str, int]]]]:
    """Each pod set's name, pods and hosts (with counts), from the result's rank table."""
    found = []
    for index, pod_set in enumerate(run.pod_sets()):
        first = run.first_rank(index)
        part = RunResult(
            result.key, result.status, result.flavor, ranks=result.ranks[first : first + pod_set.count]
        )
        found.append((pod_set.name, pod_set.count, part.hosts()))
    return found


def as_text(sim: Simulation) -> str:
    result = sim.result
    runs = {r.key: r for r in sim.source.runs}
    count = {s: sum(r.status == s for r in result.runs) for s in get_args(Status)}
    lines = [
        f"simulate: cluster {sim.cluster}, {len(result.runs)} runs: "
        + ", ".join(f"{n} {s}" for s, n in count.items() if n or s in ("admitted", "pending")),
    ]
    for run in result.runs:
        lines += _run_lines(run)
        if runs[run.key].more and run.status == "admitted":
            lines += _pod_set_lines(runs[run.key], run)
    lines.append(_cycles_line(result))
    lines += ["", "GPUs per flavor      requested  admitted  free"]
    lines += [f"  {t.flavor:<20} {t.requested:>7} {t.admitted:>9} {t.free:>5}" for t in result.totals]
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines) + "\n"


def _cycles_line(result: SimResult) -> str:
    """R52: how many scheduling cycles ran, and what they left queued when a limit stopped them."""
    ran = f"{result.cycles} scheduling cycle{'s' if result.cycles != 1 else ''}"
    if result.limit is None:
        return f"  {ran}, until nothing more could change"
    if not result.cut_off:
        return f"  {ran} (--cycles {result.limit}); nothing was left queued"
    return f"  {ran} (--cycles {result.limit}); still queued when they ran out: {', '.join(result.cut_off)}"


def _pod_set_lines(run: SimRun, result: RunResult) -> list[str]:
    flavors = [f", {f}" for f in result.pod_set_flavors] or [""] * (len(run.more) + 1)  # R47
    return [
        f"            pod set {name} ({count} {'pod' if count == 1 else 'pods'}{flavor})  "
        + (", ".join(f"{h} x{n}" for h, n in hosts) or "no hosts")
        for (name, count, hosts), flavor in zip(pod_set_hosts(run, result), flavors, strict=True)
    ]


def _run_lines(run: RunResult) -> list[str]:
    head = f"  {run.status:<9} {run.key}  ({run.flavor or 'no flavor'})"
    if run.status != "admitted":
        return [head, f"            {run.reason}"]
    victims = [f"            preempted  {v.key} ({v.reason})" for v in run.victims]
    hosts = run.hosts()
    if not hosts:
        return [f"{head}  not topology-aware: kube-scheduler picks the nodes", *victims]
    lines = [head, *victims, "            hosts  " + ", ".join(f"{h} x{n}" for h, n in hosts)]
    ranks = ", ".join(f"{i}={h}" for i, h in enumerate(run.ranks))
    lines.append(f"            ranks  {ranks}")
    if run.replaced:
        lines.append(f"            placed again (S5): ranks {', '.join(map(str, run.replaced))}")
    return lines
