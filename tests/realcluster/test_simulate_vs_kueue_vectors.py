"""Issue 31 item 5, the repository's TAS vectors: every case of tests/data/tas-upstream/*.yaml
(recorded from Kueue v0.19.2's own unit tests) and of ../shared/acceptance/tas-vectors.yaml
(when present) played on the real Kueue v0.19.2 (minimalkueue, default gates) and compared,
Workload by Workload, with the case's recorded answer and with taugen's (SPEC S2, S3): admitted
or pending, the flavor, and each pod set's domains with their pod counts.

A case outside taugen's scope keeps the reason recorded with it (`outOfScope`); a case taugen
expresses but a real cluster cannot be made to hold is listed in NOT_EXPRESSIBLE with why. The
figures go to the run's summary."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.kube import Kube
from tests.realcluster.simkueue_cluster import play
from tests.realcluster.simkueue_objects import Isolation
from tests.realcluster.simkueue_suite import THREADS
from tests.realcluster.simkueue_vector_scene import vector_scene
from tests.realcluster.simkueue_vectors import FAMILIES, Answer, Vector, kueue_answer

pytestmark = pytest.mark.realcluster

REPLACEMENT = (
    "node replacement: the case's workload is already admitted on a node that then fails. Kueue "
    "v0.19.2 replaces a node for a workload whose pods ran there and failed "
    "(pkg/controller/tas/node_failure_controller.go, TASReplaceNodeOnPodTermination); here no "
    "kubelet runs pods, minimalkueue runs no job integration, and a Workload cannot be created "
    "already admitted on a chosen node (its status is Kueue's)"
)
MULTI_LAYER = "multi-layer-replacement:TestFindTopologyAssignmentsMultiLayerReplacement/"
NOT_EXPRESSIBLE = {  # id (file:case) -> why a real cluster cannot hold the case
    "find-topology-assignments:TestFindTopologyAssignments/node replaced for Job-owned workload; gate on": (
        REPLACEMENT
    ),
    f"{MULTI_LAYER}replace unhealthy node in incomplete rack slice": REPLACEMENT,
    f"{MULTI_LAYER}replacement fails when no capacity in incomplete slice domain": REPLACEMENT,
    f"{MULTI_LAYER}3-layer: innermost broken domain confines replacement to correct switch": REPLACEMENT,
    f"{MULTI_LAYER}2-layer: sliceSize=2 prevents scattered single-pod placement across hosts": REPLACEMENT,
}

# id -> why Kueue's message differs from the case's recorded one (the outcome agrees)
KNOWN_WORDS = {
    "find-topology-assignments:TestFindTopologyAssignments/cannot request not existing slice topology": (
        "the scheduler's flavor check refuses a level the flavor's Topology lacks before TAS runs "
        "(pkg/scheduler/flavorassigner/tas_flavorassigner.go:193, `Flavor %q does not contain the "
        "requested level`); the unit test calls TAS directly (pkg/cache/scheduler/"
        "tas_flavor_snapshot.go:943); a taugen run asks only its Topology's levels"
    ),
}

# minimalkueue takes no --feature-gates: a case played must set only v0.19.2's defaults
# (pkg/features/kube_features.go: TASProfileMixed Beta on, TASMultiLayerTopology Beta on since
# 0.19, TASBalancedPlacement Alpha off)
DEFAULT_GATES = {"TASProfileMixed": True, "TASMultiLayerTopology": True, "TASBalancedPlacement": False}


@dataclass(frozen=True)
class Census:
    total: int
    out_of_scope: list[tuple[str, str]]  # (id, the case's own outOfScope)
    listed: list[tuple[str, str]]  # (id, NOT_EXPRESSIBLE's reason)
    playable: list[Vector]


def census() -> Census:
    """Every case of every family, each counted once in one of the three lists."""
    total, scope, listed, playable = 0, [], [], []
    for family in FAMILIES:
        for case in family.cases():
            total += 1
            name = f"{family.file}:{case['name']}"
            if (why := family.scope(case)) is not None:
                scope.append((name, why))
            elif name in NOT_EXPRESSIBLE:
                listed.append((name, NOT_EXPRESSIBLE[name]))
            else:
                assert "replacement" not in case and "workload" not in case, f"{name}: not listed"
                gates = case.get("gates") or {}
                assert all(DEFAULT_GATES.get(g) == on for g, on in gates.items()), (name, gates)
                playable.append(family.vector(family.file, case))
    return Census(total, scope, listed, playable)


@dataclass(frozen=True)
class Result:
    vector: Vector
    kueue: dict[str, Answer]  # per Workload key
    stable: bool  # each Workload's first decision is Kueue's last

    def agree(self) -> bool:
        return self.stable and all(
            self.kueue[k].outcome() == want.outcome() == self.vector.taugen[k].outcome()
            for k, want in self.vector.expected.items()
        )

    def differently_worded(self) -> bool:
        """Pending in all three answers, Kueue's message not the recorded one."""
        return any(w.words is not None and w.words != k.words for w, _, k in self.pending())

    def pending(self) -> list[tuple[Answer, Answer, Answer]]:
        """(recorded, taugen's, Kueue's) of each Workload all three leave pending."""
        found = [(w, self.vector.taugen[k], self.kueue[k]) for k, w in self.vector.expected.items()]
        return [t for t in found if all(a.status == "pending" for a in t)]

    def lines(self) -> list[str]:
        flags = ("" if self.agree() else " DIFF") + ("" if self.stable else " CHANGED")
        found = [f"{self.vector.id}{flags}"]
        for key, want in self.vector.expected.items():
            found += [f"  {key} recorded: {want}", f"  {key} taugen:   {self.vector.taugen[key]}"]
            found.append(f"  {key} Kueue:    {self.kueue[key]}")
        return found


def _play(kube: Kube, index: int, vector: Vector, alive: Callable[[], bool]) -> Result:
    iso = Isolation(f"tv{index:03d}")
    scene = vector_scene(vector.spec, iso)
    outcome = play(kube, scene, alive)
    keys = [f"{iso.unprefixed(w['metadata']['namespace'])}/{w['metadata']['name']}" for w in scene.workloads]
    answers = {k: kueue_answer(d, iso) for k, d in zip(keys, outcome.decisions, strict=True)}
    stable = all(a.same(b) for a, b in zip(outcome.first, outcome.decisions, strict=True))
    return Result(vector, answers, stable)


def figure(found: Census, results: list[Result], seconds: float) -> str:
    pending = [t for r in results for t in r.pending()]
    worded = [(w, t, k) for w, t, k in pending if w.words is not None]
    ends = sum((t.words or "").endswith(k.words or "?") for _, t, k in worded)
    return (
        f"{found.total} cases: {len(found.out_of_scope)} outside taugen's scope (each case's "
        f"outOfScope), {len(found.listed)} not expressible to a real cluster (listed), "
        f"{len(results)} run through the real Kueue ({sum(len(r.kueue) for r in results)} Workloads), "
        f"{sum(r.agree() for r in results)} agree with "
        f"the case's recorded answer and with taugen's (admitted or pending, flavor, each pod set's "
        f"domains and pods); of {len(worded)} pending Workloads with a recorded message, "
        f"{sum(w.words == k.words for w, _, k in worded)} with Kueue's message word for word, "
        f"and taugen's reason ends with it for {ends}; "
        f"{seconds:.0f} s on {THREADS} threads"
    )


def test_tas_vectors_agree_with_kueue(
    control_plane: ControlPlane, tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    found = census()
    assert sorted(i for i, _ in found.listed) == sorted(NOT_EXPRESSIBLE)  # no stale id
    kube, alive = control_plane.kube, control_plane.alive
    began = time.monotonic()
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda item: _play(kube, item[0], item[1], alive), enumerate(found.playable)))
    details = tmp_path / "tas-vectors-vs-kueue.txt"
    details.write_text("\n".join(line for r in results for line in r.lines()) + "\n")
    text = figure(found, results, time.monotonic() - began)
    record(pytestconfig, f"simulate vs Kueue, TAS vectors: {text} (every case: {details})")
    assert [r.vector.id for r in results if not r.agree()] == []
    pending = [t for r in results for t in r.pending()]
    assert len(results) >= 110 and len(pending) >= 30, (len(results), len(pending))
    assert sorted(r.vector.id for r in results if r.differently_worded()) == sorted(KNOWN_WORDS)
    worded = [
        (t.words, k.words)
        for r in results
        if not r.differently_worded()
        for w, t, k in r.pending()
        if w.words is not None
    ]
    assert [(t, k) for t, k in worded if not (t or "").endswith(k or "?")] == []
