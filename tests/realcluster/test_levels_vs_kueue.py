"""Issue 34: a cluster's own topology levels (SPEC R42) and runs that require or prefer them by
name (R43), against the real Kueue v0.19.2 (minimalkueue) and the real API server.

The fleet and the scenarios are in simkueue_levels.py: rows and racks in the fleet's own
labels, a NotReady and a tainted node, a node without a rack label, and a variant that maps
same-network-domain onto the row. Each scenario is played as test_simulate_vs_kueue.py plays
its own (taugen's Topology, flavors and queues, the Nodes, then one Workload per run as Kueue's
Job integration writes it from render's Job). Each run's whole outcome (admitted with its
flavor and pods per host, or pending and for what kind of reason) is compared three ways:
what this file expects, what `taugen simulate` says, what Kueue did."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.context.session import open_project
from tests.realcluster.binaries import Binaries
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.defaults import read_record, unrecorded
from tests.realcluster.exercise import exercise
from tests.realcluster.simkueue_compare import kind, kueue_pod_sets, taugen_pod_sets
from tests.realcluster.simkueue_levels import RACK, ROW, SCENARIOS
from tests.realcluster.simkueue_scenarios import write_project
from tests.realcluster.simkueue_suite import Case, Played, figure, plan_cases, play_all, report

pytestmark = pytest.mark.realcluster
FLAVOR = "taugrid-h200-141gb"
TOPOLOGY = ("pending", "topology")
Outcome = tuple[Any, ...]  # ("admitted", flavor, pods per host of each pod set) or ("pending", kind)


def placed(*hosts: str) -> Outcome:
    """Admitted on the GPU flavor, one pod per host named (a host named twice holds two)."""
    return ("admitted", FLAVOR, (dict(Counter(hosts)),))


EXPECTED: dict[str, dict[str, Outcome]] = {
    "lv-fill": {  # BestFit: the tightest rack that holds the run; b and c tie (16), b comes first
        "r0": placed("a0", "a1", "a2"),
        "r1": placed("b0", "b1"),
        "r2": placed("c0", "c1"),
        "r3": placed("d0"),
        "r4": TOPOLOGY,  # c2 NotReady, d1 tainted: no rack has a free host
    },
    "lv-row": {
        "r0": TOPOLOGY,  # 32 GPUs: no rack (a: 24) holds them
        "r1": placed("a0", "a1", "b0", "b1"),  # row r1 (40); below the rack, network domains
        "r2": TOPOLOGY,  # row r1 has 8 left, row r2 24
    },
    "lv-nowhere": {
        "r0": TOPOLOGY,  # 48 GPUs: no row (r1: 40)
        "r1": placed("a0", "a1", "a2", "b0", "b1", "d0"),  # preferred: row r1, then the tightest rest
    },
    "lv-prefer": {
        "r0": placed("a0", "a1", "b0", "b1"),  # no rack holds 4: row r1 as a required row would
        "r1": placed("a2", "c0", "c1", "d0"),  # no row holds 4 any more: across both
        "r2": TOPOLOGY,  # every usable host is taken
    },
    "lv-pack": {
        "r0": placed("a0", "a0", "a1", "a1", "a2"),  # 5 x 4 GPUs in rack a
        "r1": TOPOLOGY,  # 7 x 4: no rack has 28 free
        "r2": TOPOLOGY,  # nor a row now (r1: 20, r2: 24)
    },
    "lv-net": {
        "r0": TOPOLOGY,  # fits rack a; ib-2 (a2, b0, b1) is 24 GPUs but two domains under two racks
        "r1": TOPOLOGY,  # fits row r1 only
        "r2": TOPOLOGY,  # fits nowhere
        "r3": placed("a0", "a1"),  # (a, ib-1), (b, ib-2), (c, ib-3) tie at 16: the first
        "r4": placed("a2", "b0", "b1"),  # preferred: spans ib-2's two halves
        "r5": placed("c0", "c0", "c1"),
    },
    # e0 has no dc.example.org/rack: Kueue leaves it out of its topology altogether (v0.19.2
    # pkg/util/tas/node.go NodeMatchesFlavor, every level's label required; tas_nodes_cache.go
    # `find` builds the TAS tree from the matching nodes only: "Total nodes: 9"), and so does
    # taugen (levels.missing); its GPUs still count as quota
    "lv-unracked": {
        "r0": placed("a0", "a1", "a2", "b0", "b1"),
        "r1": TOPOLOGY,  # row r2 has c0, c1, d0 free: 3 of 4
    },
    "lv-unracked-fill": {
        "r0": placed("a0", "a1", "a2"),
        "r1": placed("b0", "b1"),
        "r2": placed("c0", "c1"),
        "r3": placed("d0"),
        "r4": TOPOLOGY,  # only e0 is free, and no topology-aware run lands on it
    },
    "lm-net": {  # same-network-domain is the row: rack a whole, no network-domain level below it
        "r0": placed("a0", "a1", "a2", "b0"),
        "r1": TOPOLOGY,
        "r2": placed("c0", "c1"),
        "r3": placed("b1", "d0"),  # preferred rack: none holds 2 now
    },
    "lm-mixed": {
        "r0": TOPOLOGY,  # 48 GPUs: no row
        "r1": placed("a0", "a1", "a2", "b0", "b1", "d0"),
        "r2": placed("c0"),  # same-accelerator-domain, unmapped: each H200 its own
        "r3": TOPOLOGY,
    },
}
NET, ACC = "tau.azure.com/network-domain", "tau.azure.com/accelerator-domain"
# what render's Jobs ask Kueue for (the Workloads' topologyRequest), per scenario: R43 writes the
# declared level's label, a mapped placement the label it stands on (R42)
REQUESTS = {
    "lv-fill": {("required", RACK)},
    "lv-row": {("required", RACK), ("required", ROW)},
    "lv-nowhere": {("required", ROW), ("preferred", RACK)},
    "lv-prefer": {("preferred", RACK), ("preferred", ROW)},
    "lv-pack": {("required", RACK), ("required", ROW)},
    "lv-net": {("required", NET), ("preferred", NET)},
    "lv-unracked": {("required", ROW)},
    "lv-unracked-fill": {("required", RACK)},
    "lm-net": {("required", ROW), ("required", RACK), ("preferred", RACK)},
    "lm-mixed": {("required", ROW), ("preferred", ROW), ("required", ACC), ("required", RACK)},
}
UNRACKED_NODES = 'Total nodes: 9; excluded: resource "nvidia.com/gpu": 5'  # 11 nodes, c2 NotReady, e0


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("levels")
    found = write_project(root, SCENARIOS)
    build(BuildOptions(project_file=found))
    return found


def test_declared_levels_place_as_kueue_places_them(
    control_plane: ControlPlane, project: Path, pytestconfig: pytest.Config
) -> None:
    cases = [Case(s.name, project.parent / "sets" / f"{s.name}.yaml", s.name, s.name) for s in SCENARIOS]
    played, seconds = play_all(control_plane.kube, plan_cases(project, cases), control_plane.alive)
    details = project.parent / "levels-vs-kueue.txt"
    details.write_text(report(played))
    record(pytestconfig, f"declared levels vs Kueue: {figure(played, seconds)} (every run: {details})")
    assert {p.name: _requests(p) for p in played} == REQUESTS
    taugen = {p.name: _taugen(p) for p in played}
    kueue = {p.name: _kueue(p) for p in played}
    assert taugen == EXPECTED
    assert kueue == EXPECTED
    assert all(v.stable for p in played for v in p.verdicts)  # Kueue kept its first answer
    unracked = next(p for p in played if p.name == "lv-unracked").outcome.first[1]
    assert UNRACKED_NODES in unracked.message  # Kueue's tree has no e0


def _requests(found: Played) -> set[tuple[str, str]]:
    return {
        (mode, pod_set["topologyRequest"][mode])
        for workload in found.plan.scene.workloads
        for pod_set in workload["spec"]["podSets"]
        for mode in ("required", "preferred")
        if mode in pod_set["topologyRequest"]
    }


def _taugen(found: Played) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    for expected in found.plan.expected:
        result = expected.result
        name = result.key.split("/")[1]
        if result.status == "admitted":
            outcomes[name] = ("admitted", result.flavor, tuple(taugen_pod_sets(expected)))
        else:
            outcomes[name] = (result.status, kind(result.reason))
    return outcomes


def _kueue(found: Played) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    iso = found.plan.scene.iso
    for expected, got in zip(found.plan.expected, found.outcome.first, strict=True):
        name = expected.result.key.split("/")[1]
        if got.status == "admitted":
            flavor = iso.unprefixed(got.flavor) if got.flavor else None
            outcomes[name] = ("admitted", flavor, tuple(kueue_pod_sets(got, found.plan)))
        else:
            outcomes[name] = (got.status, kind(got.message))
    return outcomes


@pytest.mark.parametrize("cluster", ["lv-fill", "lm-net"])
def test_the_tree_with_declared_levels_applies_cleanly(
    cluster: str, project: Path, control_plane: ControlPlane, binaries: Binaries, pytestconfig: pytest.Config
) -> None:
    """The compiled tree as test_trees.py applies every tree: zero refusals, values kept, a
    second apply that writes nothing, read back as no change, nothing unrecorded added."""
    tree = project.parent / "out" / cluster
    labels = [level["nodeLabel"] for level in _topology(tree)["spec"]["levels"]]
    assert ROW in labels and RACK in labels  # the Topology the server takes has the declared levels
    context = open_project(project)
    inventory = {n.name: n for n in context.cluster(context.pick(cluster)).inventory.nodes}
    outcome = exercise(control_plane, binaries["kustomize"], tree, inventory)
    assert (outcome.dry_run, outcome.applied) == ([], [])
    assert outcome.second_writes == {}
    assert outcome.rewritten == {}
    assert outcome.read_back == {}
    assert unrecorded(outcome.added, read_record()) == {}
    phases = ", ".join(f"{phase} {s:.1f} s" for phase, s in outcome.seconds.items())
    record(pytestconfig, f"declared levels tree {cluster}: {outcome.objects} objects: {phases}")


def _topology(tree: Path) -> dict[str, Any]:
    docs = yaml.safe_load_all((tree / "topology.yaml").read_text(encoding="utf-8"))
    return next(d for d in docs if d and d["kind"] == "Topology")
