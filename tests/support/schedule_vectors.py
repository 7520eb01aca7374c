"""Test helper: feed a case of Kueue v0.19.2's TestScheduleForTAS
(tests/data/tas-upstream/schedule-for-tas.yaml, format in its README.md) to `taugen simulate`'s
engine, and turn the engine's answer back into the case's `expected` shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import (
    RunResult,
    SimFlavor,
    SimInput,
    SimNode,
    SimPod,
    SimPodSet,
    SimRun,
)
from taugen.engines.placement.request import Mode, SliceLayer
from taugen.engines.placement.tree import FilterTaint, FilterToleration
from taugen.models.node_filters import NodeRequirement
from tests.support.upstream_vectors import FOLDER, TERMINAL, _in_tree, _quantities

FILE = FOLDER / "schedule-for-tas.yaml"
HOST = "kubernetes.io/hostname"
FAILED = "couldn't assign flavors to pod set "  # Kueue's prefix of a pending workload's event


def _mode(topology: Mapping[str, Any]) -> tuple[Mode, str | None, tuple[SliceLayer, ...]]:
    layers: tuple[SliceLayer, ...] = ()
    if "sliceRequired" in topology:
        layers = (SliceLayer(topology["sliceRequired"], topology.get("sliceSize", 0)),)
    if "sliceLayers" in topology:  # Kueue's podset-slice-required-topology-constraints
        layers = tuple(SliceLayer(layer["level"], layer["size"]) for layer in topology["sliceLayers"])
    for mode in ("required", "preferred"):
        if mode in topology:
            return mode, topology[mode], layers
    return "unconstrained", None, layers


def _nodes(case: dict[str, Any]) -> tuple[SimNode, ...]:
    levels, flavor = tuple(case["topology"]["levels"]), case["flavor"]
    found = []
    for raw in case["nodes"]:
        in_tree = _in_tree(raw, flavor["nodeLabels"], levels)
        path = tuple(raw["labels"].get(level, "") for level in levels)
        ready = raw["ready"] and not raw.get("unschedulable")
        allocatable = _quantities(raw["allocatable"])
        taints = tuple(FilterTaint(t["key"], t.get("value", ""), t["effect"]) for t in raw.get("taints", []))
        name = flavor["name"] if in_tree else None
        found.append(SimNode(raw["name"], ready, name, path, allocatable, taints, raw["labels"]))
    return tuple(found)


def _pod_set(podset: Mapping[str, Any]) -> SimPodSet:
    mode, level, layers = _mode(podset["topology"])
    return SimPodSet(podset["name"], podset["count"], _quantities(podset["requests"]), mode, level, layers)


def _toleration(raw: Mapping[str, Any]) -> FilterToleration:
    exists = raw.get("operator") == "Exists"
    return FilterToleration(
        raw.get("key", ""), None if exists else raw.get("value", ""), raw.get("effect") or None
    )


def _affinity(podset: Mapping[str, Any]) -> tuple[tuple[NodeRequirement, ...], ...]:
    terms = (podset.get("nodeAffinity") or {}).get("required") or []
    return tuple(tuple(NodeRequirement.model_validate(r) for r in term) for term in terms)


def _run(workload: Mapping[str, Any], flavor: str, by_host: Mapping[str, str]) -> SimRun:
    """A workload of several pod sets is a JobSet run's (K6): the first and `more`."""
    podset, *more = workload["podSets"]
    mode, level, layers = _mode(podset["topology"])
    plan = None
    if "admitted" in workload:
        (placed,) = workload["admitted"]
        hosts = [by_host[d["values"][-1]] for d in placed["assignment"]["domains"] for _ in range(d["count"])]
        plan = dict(enumerate(hosts))
    per_pod = _quantities(podset["requests"])
    return SimRun(
        workload["name"],
        0,
        "",
        flavor,
        podset["count"],
        per_pod,
        mode,
        level,
        plan=plan,
        slices=layers,
        name=podset["name"] if more else "",
        more=tuple(_pod_set(p) for p in more),
        tolerations=tuple(_toleration(t) for t in podset.get("tolerations") or []),
        affinity=_affinity(podset),
    )


def sim_input(case: dict[str, Any]) -> SimInput:
    flavor = case["flavor"]["name"]
    nodes = _nodes(case)
    by_host = {n.path[-1]: n.name for n in nodes}
    quota = _quantities(case["clusterQueue"]["quota"][flavor])
    runs = tuple(_run(w, flavor, by_host) for w in case["workloads"])
    running = tuple(
        SimPod(p["node"], _quantities(p["requests"]))
        for p in case.get("pods") or []
        if p["node"] is not None and p["phase"] not in TERMINAL
    )
    topology = case["topology"]
    tolerations = tuple(_toleration(t) for t in case["flavor"].get("tolerations") or [])
    flavors = (SimFlavor(flavor, quota, True, tolerations),)
    return SimInput(topology["name"], tuple(topology["levels"]), flavors, nodes, runs, running)


def load_cases() -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(FILE.read_text()) if doc]


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """Each workload the case expects a result for: admitted with its pod set's assignment, or
    pending with Kueue's TAS message (the part after the pod set's name)."""
    source = sim_input(case)
    hostname = {n.name: n.path[-1] for n in source.nodes}
    results = {r.key: r for r in simulate(source).runs}
    runs = {r.key: r for r in source.runs}
    found: dict[str, Any] = {}
    for key in case["expected"]:
        result = results[key]
        if result.status != "admitted":
            found[key] = {"pending": result.reason}
            continue
        found[key] = {
            "admitted": [_placed(runs[key], result, i, hostname) for i in range(len(runs[key].more) + 1)]
        }
    return found


def _placed(run: SimRun, result: RunResult, index: int, hostname: Mapping[str, str]) -> dict[str, Any]:
    """Pod set `index`'s count and hosts; no assignment for a pod set of count 0 (Kueue's)."""
    pod_set, first = run.pod_sets()[index], run.first_rank(index)
    part = RunResult(
        result.key, result.status, result.flavor, ranks=result.ranks[first : first + pod_set.count]
    )
    placed = {"flavor": result.flavor, "count": pod_set.count, "levels": [HOST]}
    if not pod_set.count:
        return {**placed, "levels": None, "domains": None}
    return {**placed, "domains": sorted(([hostname[h]], n) for h, n in part.hosts())}


def expected(case: dict[str, Any]) -> dict[str, Any]:
    """The case's `expected` in run_case's shape; a pending message keeps Kueue's TAS part."""
    found: dict[str, Any] = {}
    for key, want in case["expected"].items():
        if "admitted" not in want:
            found[key] = {"pending": want["pending"]}
            continue
        found[key] = {"admitted": [_wanted(podset) for podset in want["admitted"]]}
    return found


def _wanted(podset: Mapping[str, Any]) -> dict[str, Any]:
    flavors = set(podset["flavors"].values())
    flavor = flavors.pop() if len(flavors) == 1 else sorted(flavors)
    assignment = podset.get("assignment")
    if assignment is None:  # Count(0): Kueue assigns the flavor, no topology
        return {"flavor": flavor, "count": podset["count"], "levels": None, "domains": None}
    domains = sorted((d["values"], d["count"]) for d in assignment["domains"])
    return {"flavor": flavor, "count": podset["count"], "levels": assignment["levels"], "domains": domains}


def same_pending(got: str, want: str | None, several: bool = False) -> bool:
    """Kueue's event says `couldn't assign flavors to pod set <name>: <TAS message>`; simulate's
    reason ends with the same TAS message, and for a workload of `several` pod sets (K6) names
    the same pod set (`pod set <name>: `)."""
    if want is None:  # the Go test ignores the event's message (eventIgnoreMessage): pending is all
        return True
    head, _, message = want.partition(": ")
    named = f"pod set {head.removeprefix(FAILED)}: " in got if several else True
    return head.startswith(FAILED) and got.endswith(": " + message) and named
