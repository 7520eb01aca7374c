"""The repository's TAS vectors for the real Kueue (issue 31 item 5): each case of
tests/data/tas-upstream/*.yaml and of ../shared/acceptance/tas-vectors.yaml (when present) as
a `VectorSpec`, with two answers per Workload in one shape, `Answer`: the case's recorded one
(Kueue's own unit test's `want...`) and taugen's (what tests/unit/simulate feed the same case
to: the placement core, or simulate's engine for TestScheduleForTAS). Kueue's decision on the
real cluster is read into the same shape (`kueue_answer`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tests.realcluster.simkueue_compare import kueue_words
from tests.realcluster.simkueue_objects import HOSTNAME, Isolation, NodeSpec
from tests.realcluster.simkueue_vector_scene import PodSetSpec, PodSpec, VectorSpec, WorkloadSpec
from tests.realcluster.simkueue_workloads import Decision
from tests.support import schedule_vectors, upstream_vectors, vectors

KEY = "default/wl"  # the one Workload of a placement case
PLACEMENT_FIELDS = {"name", "gates", "levels", "flavorNodeLabels", "nodes", "pods", "podSets"}
POD_SET_FIELDS = {"name", "count", "perPod", "topology", "group", "nodeSelector", "tolerations", "expected"}
FLAVOR = "tas"
Domains = tuple[tuple[tuple[str, ...], int], ...]  # (values at every level of `levels`, pods), sorted
Placement = tuple[tuple[str, ...], Domains] | None  # (levels, domains); None: no TopologyAssignment


@dataclass(frozen=True)
class Answer:
    status: str  # admitted | pending
    flavor: str | None = None
    pod_sets: tuple[Placement, ...] = ()  # admitted: each pod set's, in the Workload's order
    words: str | None = None  # pending: the TAS message (None: the case does not record it)

    def outcome(self) -> tuple[str, str | None, tuple[Placement, ...]]:
        return (self.status, self.flavor, self.pod_sets)


@dataclass(frozen=True)
class Vector:
    id: str  # <file>:<case name>
    spec: VectorSpec
    expected: Mapping[str, Answer]  # per Workload key: the case's recorded answer
    taugen: Mapping[str, Answer]


@dataclass(frozen=True)
class Family:
    file: str
    cases: Callable[[], list[dict[str, Any]]]
    vector: Callable[[str, dict[str, Any]], Vector]
    scope: Callable[[dict[str, Any]], str | None]  # why taugen does not express a case, or None


def _placement(levels: Any, domains: Any) -> Placement:
    if levels is None:
        return None
    found = tuple(sorted((tuple(d["values"]), d["count"]) for d in domains))
    return (tuple(levels), found)


def _placement_answer(per_pod_set: list[dict[str, Any]]) -> Answer:
    """tas_cache_test.go's per-pod-set shape: the first reason makes the Workload pending."""
    reason = next((p["reason"] for p in per_pod_set if "reason" in p), None)
    if reason is not None:
        return Answer("pending", words=reason)
    return Answer("admitted", FLAVOR, tuple(_placement(p["levels"], p["domains"]) for p in per_pod_set))


def _milli(name: str, value: Any) -> str:
    """tas_cache_test.go's int64 requests: cpu in millicores, the others in base units."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}m" if name == "cpu" else str(value)
    return str(value)


def _strings(raw: Mapping[str, Any] | None) -> dict[str, str]:
    return {k: str(v) for k, v in (raw or {}).items()}


def _node(raw: Mapping[str, Any]) -> NodeSpec:
    allocatable = _strings(raw["allocatable"])
    taints = tuple({k: str(v) for k, v in t.items()} for t in raw.get("taints") or [])
    labels = _strings(raw["labels"])
    return NodeSpec(
        raw["name"],
        raw["ready"],
        labels,
        {},
        taints,
        allocatable,
        allocatable,
        bool(raw.get("unschedulable")),
    )


def _go_toleration(raw: Mapping[str, Any]) -> dict[str, str]:
    return {k.lower(): str(v) for k, v in raw.items() if v}


def _pods(case: Mapping[str, Any]) -> tuple[PodSpec, ...]:
    return tuple(
        PodSpec(p["name"], p["node"], p["phase"], _strings(p["requests"])) for p in case.get("pods") or []
    )


def upstream_vector(file: str, case: dict[str, Any]) -> Vector:
    """A case of TestFindTopologyAssignments (or its multi-layer replacement test): one Workload
    with the case's pod sets on a queue with room for all; taugen's answer the placement core's.
    A field the scene would not state fails here (a node's other conditions than Ready are
    left out: the one case with one is not Ready anyway)."""
    assert set(case) <= PLACEMENT_FIELDS, set(case) - PLACEMENT_FIELDS
    assert all(set(p) <= POD_SET_FIELDS for p in case["podSets"]), case["name"]
    pod_sets = tuple(
        PodSetSpec(
            p["name"],
            p["count"],
            {k: _milli(k, v) for k, v in p["perPod"].items()},
            p["topology"],
            p.get("group"),
            _strings(p.get("nodeSelector")),
            tuple(_go_toleration(t) for t in p.get("tolerations") or []),
        )
        for p in case["podSets"]
    )
    spec = VectorSpec(
        upstream_vectors.TOPOLOGY,
        tuple(case["levels"]),
        FLAVOR,
        _strings(case.get("flavorNodeLabels")),
        (),
        "cq",
        None,
        tuple(_node(n) for n in case["nodes"]),
        _pods(case),
        (WorkloadSpec(KEY, pod_sets),),
    )
    expected = _placement_answer(upstream_vectors.expected(case))
    return Vector(
        f"{file}:{case['name']}",
        spec,
        {KEY: expected},
        {KEY: _placement_answer(upstream_vectors.run_case(case))},
    )


def schedule_vector(file: str, case: dict[str, Any]) -> Vector:
    """A case of TestScheduleForTAS: its queue, flavor, quota and workloads; a workload admitted
    in the case is created first and must be admitted where the case says; taugen's answer
    simulate's engine's (admitted plans taken as given)."""
    flavor = case["flavor"]
    workloads = tuple(
        WorkloadSpec(
            w["name"],
            tuple(
                PodSetSpec(
                    p["name"],
                    p["count"],
                    _strings(p["requests"]),
                    p["topology"],
                    tolerations=tuple(p.get("tolerations") or []),
                    affinity=tuple(
                        tuple(term) for term in (p.get("nodeAffinity") or {}).get("required") or []
                    ),
                )
                for p in w["podSets"]
            ),
            "admitted" in w,
        )
        for w in case["workloads"]
    )
    queue = case["clusterQueue"]
    spec = VectorSpec(
        case["topology"]["name"],
        tuple(case["topology"]["levels"]),
        flavor["name"],
        _strings(flavor["nodeLabels"]),
        tuple(flavor.get("tolerations") or []),
        queue["name"],
        _strings(queue["quota"][flavor["name"]]),
        tuple(_node(n) for n in case["nodes"]),
        _pods(case),
        workloads,
    )
    admitted = {w["name"]: _admitted(w["admitted"]) for w in case["workloads"] if "admitted" in w}
    want = {k: _schedule_answer(v) for k, v in schedule_vectors.expected(case).items()} | admitted
    got = {k: _schedule_answer(v) for k, v in schedule_vectors.run_case(case).items()} | admitted
    return Vector(f"{file}:{case['name']}", spec, want, got)


def _admitted(pod_sets: list[dict[str, Any]]) -> Answer:
    flavors = {f for p in pod_sets for f in p["flavors"].values()}
    placed = tuple(_placement(p["assignment"]["levels"], p["assignment"]["domains"]) for p in pod_sets)
    return Answer("admitted", flavors.pop() if len(flavors) == 1 else None, placed)


def _schedule_answer(found: Mapping[str, Any]) -> Answer:
    if "pending" in found:
        message = found["pending"]
        return Answer("pending", words=None if message is None else message.split(": ", 1)[-1])
    pod_sets = found["admitted"]
    flavors = {str(p["flavor"]) for p in pod_sets}
    placed = tuple(
        None if p["levels"] is None else (tuple(p["levels"]), tuple((tuple(v), n) for v, n in p["domains"]))
        for p in pod_sets
    )
    return Answer("admitted", flavors.pop() if len(flavors) == 1 else None, placed)


def acceptance_vector(file: str, case: dict[str, Any]) -> Vector:
    """A recorded placement vector (../shared/acceptance): its nodes' domains as level labels,
    each node's `usage` as one running pod there (Kueue counts one `pods` per pod)."""
    levels = tuple(vectors.LEVEL_KEYS[level] for level in case["levels"])
    nodes = []
    for raw in case["nodes"]:
        labels = dict(zip(levels, [*raw["domain"], raw["name"]], strict=False)) | {HOSTNAME: raw["name"]}
        taints = tuple(_taint(t) for t in raw.get("taints") or [])
        allocatable = _strings(raw["allocatable"])
        nodes.append(
            NodeSpec(raw["name"], raw.get("ready", True), labels, {}, taints, allocatable, allocatable)
        )
    pods = tuple(
        PodSpec(f"usage-{node}", node, "Running", {k: str(v) for k, v in usage.items() if k != "pods"})
        for node, usage in (case.get("usage") or {}).items()
    )
    request = case["request"]
    level = vectors.LEVEL_KEYS.get(request.get("level", ""), request.get("level"))
    topology = {request["mode"]: True if request["mode"] == "unconstrained" else level}
    pod_set = PodSetSpec("main", request["count"], _strings(request["perPod"]), topology)
    spec = VectorSpec(
        vectors.TOPOLOGY,
        levels,
        FLAVOR,
        {},
        (),
        "cq",
        None,
        tuple(nodes),
        pods,
        (WorkloadSpec(KEY, (pod_set,)),),
    )
    answer = _acceptance_answer(case["expected"])
    return Vector(
        f"{file}:{case['name']}", spec, {KEY: answer}, {KEY: _acceptance_answer(vectors.run_vector(case))}
    )


def _taint(text: str) -> dict[str, str]:
    head, effect = text.rsplit(":", 1)
    key, _, value = head.partition("=")
    return {"key": key, "effect": effect} | ({"value": value} if value else {})


def _acceptance_answer(found: Mapping[str, Any]) -> Answer:
    if not found["fits"]:
        return Answer("pending", words=found["reason"])
    levels = tuple(vectors.LEVEL_KEYS[level] for level in found["assignmentLevels"])
    domains = []
    for item in found["assignment"]:
        values = (
            (item["host"],)
            if levels == (HOSTNAME,)
            else (*item["domain"], *([item["host"]] if "host" in item else []))
        )
        domains.append((tuple(values), item["count"]))
    return Answer("admitted", FLAVOR, ((levels, tuple(sorted(domains))),))


def _upstream_scope(case: dict[str, Any]) -> str | None:
    scope: str | None = case.get("outOfScope")
    return scope


FAMILIES = (
    Family(
        "find-topology-assignments",
        lambda: _of(upstream_vectors.load_cases(), "TestFindTopologyAssignments/"),
        upstream_vector,
        _upstream_scope,
    ),
    Family(
        "multi-layer-replacement",
        lambda: _of(upstream_vectors.load_cases(), "TestFindTopologyAssignmentsMultiLayerReplacement/"),
        upstream_vector,
        _upstream_scope,
    ),
    Family("schedule-for-tas", schedule_vectors.load_cases, schedule_vector, _upstream_scope),
    Family("acceptance/tas-vectors", vectors.load_vectors, acceptance_vector, lambda case: None),
)


def _of(cases: list[dict[str, Any]], test: str) -> list[dict[str, Any]]:
    return [c for c in cases if c["name"].startswith(test)]


def kueue_answer(got: Decision, iso: Isolation) -> Answer:
    """Kueue's decision in the cases' shape: the scenario's prefix gone from the flavor and
    from every hostname value, the pending message without its pod set's lead-in."""
    if got.status != "admitted":
        return Answer("pending", words=kueue_words(got.message, iso))
    host = got.levels.index(HOSTNAME) if HOSTNAME in got.levels else None
    pod_sets: list[Placement] = []
    for domains in got.pod_sets:
        if not domains:
            pod_sets.append(None)
            continue
        found = tuple(
            sorted(
                (tuple(iso.unprefixed(v) if i == host else v for i, v in enumerate(values)), count)
                for values, count in domains.items()
            )
        )
        pod_sets.append((got.levels, found))
    return Answer("admitted", iso.unprefixed(got.flavor) if got.flavor else None, tuple(pod_sets))
