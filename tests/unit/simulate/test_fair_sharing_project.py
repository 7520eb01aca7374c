"""R49, R52 through the whole command: docs/cohorts.md's fair-sharing example. The lab project
with team-a (weight 2) and team-b (weight 1) each guaranteed 8 H200 GPUs and the 32 nobody is
guaranteed idle in the shared queue; team-b borrowed all of them, team-a comes back with three
runs (tests/unit/simulate/fair-sharing-workloads.yaml). Fair sharing preempts team-b's newest
borrowed runs for team-a's, by its strategies; with fair sharing off nothing is preempted."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.engines.admission.project import SimulateOptions, run_simulation
from tests.conftest import Run
from tests.support.runs import PROJECT

WORKLOADS = Path(__file__).resolve().parent / "fair-sharing-workloads.yaml"
FAIR = "Fair Sharing within the cohort (InCohortFairSharing)"
Decision = tuple[str, list[str], str | None]


def _project(root: Path, kueue: Mapping[str, Any] | None) -> Path:
    shutil.copytree(PROJECT, root)
    doc = yaml.safe_load((root / "taugen.yaml").read_text())
    cluster = doc["clusters"][0]
    cluster["tenants"][0] |= {"guaranteed": {"h200-141gb": 8}, "weight": 2}
    cluster["tenants"][1] |= {"guaranteed": {"h200-141gb": 8}}
    if kueue is not None:
        cluster["kueue"] = kueue
    (root / "taugen.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    inventory = root / "inventory.yaml"  # all six H200 hosts Ready: 48 GPUs, as the quota
    text = inventory.read_text()
    h200_a3 = "{name: h200-a3, vmSize: Standard_ND96isr_H200_v5, ready: false,"
    assert text.count(h200_a3) == 1
    inventory.write_text(text.replace(h200_a3, h200_a3.removesuffix(" ready: false,")))
    build(BuildOptions(project_file=root / "taugen.yaml"))
    return root / "taugen.yaml"


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        name: _project(tmp_path_factory.mktemp(name) / "lab", kueue)
        for name, kueue in (
            ("both", {"fairSharing": {"enable": True}}),
            (
                "final",
                {"fairSharing": {"enable": True, "preemptionStrategies": ["LessThanOrEqualToFinalShare"]}},
            ),
            ("off", {"fairSharing": {"enable": False}}),
        )
    }


def _answer(run: Run, project: Path) -> dict[str, Any]:
    result = run("simulate", WORKLOADS, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def _decisions(answer: Mapping[str, Any]) -> dict[str, Decision]:
    return {r["name"]: (r["status"], [p["run"] for p in r["preempted"]], r["reason"]) for r in answer["runs"]}


def test_team_a_takes_back_its_share_by_both_strategies(run: Run, projects: dict[str, Path]) -> None:
    answer = _answer(run, projects["both"])
    kept: Decision = ("admitted", [], None)
    waits: Decision = (
        "pending",
        [],
        "quota: nvidia.com/gpu in flavor taugrid-h200-141gb: the run requests 8, 0 is free to "
        "ClusterQueue taugrid-team-b (nominal 8, cohort taugrid); "
        "fair sharing preempts no admitted run for it",
    )
    assert _decisions(answer) == {
        "a-0": kept,
        "b-0": kept,
        "b-1": kept,
        "b-2": ("preempted", [], f"preempted by team-a/a-3: {FAIR}"),
        "b-3": ("preempted", [], f"preempted by team-a/a-2: {FAIR}"),
        "b-4": ("preempted", [], f"preempted by team-a/a-1: {FAIR}"),
        "b-5": waits,
        "a-1": ("admitted", ["team-b/b-4"], None),
        "a-2": ("admitted", ["team-b/b-3"], None),
        "a-3": ("admitted", ["team-b/b-2"], None),
    }
    assert answer["fairSharing"] == {
        "applied": True,
        "preemptionStrategies": ["LessThanOrEqualToFinalShare", "LessThanInitialShare"],
    }
    assert answer["cycles"] == {"ran": 4, "limit": None, "cutOff": []}


def test_the_first_strategy_alone_stops_at_equal_shares(run: Run, projects: dict[str, Path]) -> None:
    """a-3 would leave team-a (24 borrowed, weight 2: 250) above team-b after losing b-2 (8
    borrowed: 167), so LessThanOrEqualToFinalShare refuses; LessThanInitialShare is not run."""
    decisions = _decisions(_answer(run, projects["final"]))
    assert {n: d[0] for n, d in decisions.items()} == {
        "a-0": "admitted",
        "b-0": "admitted",
        "b-1": "admitted",
        "b-2": "admitted",
        "b-3": "preempted",
        "b-4": "preempted",
        "b-5": "pending",
        "a-1": "admitted",
        "a-2": "admitted",
        "a-3": "pending",
    }


def test_with_fair_sharing_off_team_a_waits(run: Run, projects: dict[str, Path]) -> None:
    """Classical preemption: team-a would borrow, and borrowWithinCohort (LowerPriority) finds
    nothing below it; the notes and JSON are as without any record."""
    answer = _answer(run, projects["off"])
    assert {n: d[0] for n, d in _decisions(answer).items() if d[0] != "admitted"} == {
        "b-5": "pending",
        "a-1": "pending",
        "a-2": "pending",
        "a-3": "pending",
    }
    assert "fairSharing" not in answer
    assert answer["notes"][0].startswith("preemption is Kueue's classical preemption on quota")


def test_the_text_says_fair_sharing_decided(run: Run, projects: dict[str, Path]) -> None:
    result = run("simulate", WORKLOADS, "-c", projects["both"])
    lines = result.stdout.splitlines()
    assert lines[0] == "simulate: cluster lab, 10 runs: 6 admitted, 1 pending, 3 preempted"
    assert f"            preempted by team-a/a-1: {FAIR}" in lines
    assert lines[-1].startswith("note: preemption and order are Kueue's fair sharing")


def test_the_weights_are_read_from_the_compiled_queues(projects: dict[str, Path]) -> None:
    """T2's fairSharing.weight, read back from the tree (the shared queue writes none: 1)."""
    sim = run_simulation(SimulateOptions(WORKLOADS, projects["both"]))
    assert {q.name: q.weight for q in sim.source.queues} == {
        "taugrid": 1.0,
        "taugrid-team-a": 2.0,
        "taugrid-team-b": 1.0,
    }
    assert sim.source.fair_sharing == ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
