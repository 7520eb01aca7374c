"""Issue 31 item 5: `taugen simulate` against the real Kueue v0.19.2 (minimalkueue), run by run.

For each scenario: the inventory's Nodes (status through the status subresource, Ready, taints
kept), taugen's compiled Topology, ResourceFlavors, ClusterQueues, LocalQueues and Cohort, then
one Workload per run as Kueue's Job integration would write it from `taugen render`'s Job,
created one at a time in the simulation's admission order, each awaited until Kueue decides.
Each run's outcome (admitted or pending, the flavor, the pods per host of every pod set) is
compared with the simulation's (SPEC S2, S3). The figures go to the run's summary."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from tests.conftest import REPO
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.simkueue_scenarios import COUNT, SEED, scenarios, write_project
from tests.realcluster.simkueue_suite import Case, Played, disagreements, figure, plan_cases, play_all, report
from tests.support.helpers import write_yaml
from tests.support.runs import build_lab

pytestmark = pytest.mark.realcluster
CASES = REPO / "tests" / "cases" / "simulate"


def expressible(doc: dict[str, Any]) -> dict[str, Any]:
    """A WorkloadSet without what a Workload cannot express: runs Kueue admitted before (their
    plan), the pods running for them, and events after admission (S5's replacements)."""
    runs = [r for r in doc["runs"] if "admitted" not in r]
    running = [p for p in doc.get("running", []) if "run" not in p]
    return {k: v for k, v in doc.items() if k not in ("runs", "running", "events")} | {
        "runs": runs,
        "running": running,
    }


def _reduced(source: Path, dest: Path) -> Path:
    return write_yaml(dest, expressible(yaml.safe_load(source.read_text())))


def _check(played: list[Played], seconds: float, what: str, config: pytest.Config, folder: Path) -> None:
    details = folder / "simulate-vs-kueue.txt"
    details.write_text(report(played))
    record(config, f"simulate vs Kueue, {what}: {figure(played, seconds)} (every run: {details})")
    assert disagreements(played) == []


def test_the_example_sets_agree_with_kueue(
    control_plane: ControlPlane, tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    """examples/simulate/eastus-prod.yaml on the example project, and tests/cases/simulate/lab.yaml
    on the lab project, each without its admitted run and the node that goes down."""
    lab = build_lab(tmp_path / "lab")
    example = plan_cases(
        REPO / "taugen.yaml",
        [
            Case(
                "eastus-prod",
                _reduced(REPO / "examples" / "simulate" / "eastus-prod.yaml", tmp_path / "e.yaml"),
                None,
                "ex-eastus",
            )
        ],
    )
    labs = plan_cases(lab, [Case("lab", _reduced(CASES / "lab.yaml", tmp_path / "lab.yaml"), None, "ex-lab")])
    played, seconds = play_all(control_plane.kube, example + labs, control_plane.alive)
    statuses = Counter(v.status for p in played for v in p.verdicts)
    assert statuses["admitted"] >= 5 and statuses["pending"] >= 2, statuses
    _check(played, seconds, "the example sets", pytestconfig, tmp_path)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("simkueue")
    project = write_project(root, scenarios())
    build(BuildOptions(project_file=project))
    return project


def test_generated_scenarios_agree_with_kueue(
    control_plane: ControlPlane, generated: Path, pytestconfig: pytest.Config
) -> None:
    found = scenarios()
    assert len(found) == COUNT >= 300
    cases = [Case(s.name, generated.parent / "sets" / f"{s.name}.yaml", s.name, s.name) for s in found]
    plans = plan_cases(generated, cases)
    played, seconds = play_all(control_plane.kube, plans, control_plane.alive)
    _coverage(played)
    _check(played, seconds, f"generated (seed {SEED})", pytestconfig, generated.parent)


def _coverage(played: list[Played]) -> None:
    """The scenarios exercise what they claim: admitted runs on several hosts, pending runs for
    quota and for topology, and every topology mode."""
    verdicts = [v for p in played for v in p.verdicts]
    admitted = [v for v in verdicts if v.status == "admitted"]
    assert len(admitted) >= 300 and sum(v.hosts > 1 for v in admitted) >= 100
    reasons = Counter(v.reason for v in verdicts if v.status == "pending")
    assert reasons["quota"] >= 100 and reasons["topology"] >= 100, reasons
    modes = Counter((v.mode, v.status) for v in verdicts)
    for mode in ("required", "preferred", "unconstrained"):
        assert modes[(mode, "admitted")] >= 50 and modes[(mode, "pending")] >= 20, modes
    assert modes[("cpu", "admitted")] >= 10, modes
