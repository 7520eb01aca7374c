"""SPEC §11 M4: `taugen simulate --fleet` on the example's fleet (examples/simulate/fleet.yaml),
whole results; the refusals of a set that names one cluster's nodes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.simulate.fleet import DISPATCH, run_fleet
from taugen.commands.simulate.fleet_report import as_dict, as_text
from taugen.core.errors import InputError
from taugen.engines.admission.model import NO_PREEMPTION
from tests.conftest import REPO
from tests.support.fleet import fleet_project
from tests.support.unit import run_build

SET = REPO / "examples" / "simulate" / "fleet.yaml"
H100 = ("aks-h100-16180339-vmss000000", "aks-h100-16180339-vmss000001")
W3_A100 = "aks-a100-57721566-vmss000000", "aks-a100-57721566-vmss000002"
W2_A100 = "aks-a100-16180339-vmss000000"


def _run(name: str, status: str, worker: str | None, flavor: str | None, **rest: Any) -> dict[str, Any]:
    hosts = rest.get("hosts", [])
    return {
        "namespace": "team-research",
        "name": name,
        "status": status,
        "worker": worker,
        "flavor": flavor,
        "reason": rest.get("reason"),
        "hosts": [{"host": h, "count": 1} for h in hosts],
        "ranks": [{"rank": i, "host": h} for i, h in enumerate(hosts)],
        "workers": rest.get("workers", []),
    }


EXPECTED = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "FleetSimulationResult",
    "manager": "fleet-hub",
    "workers": ["westus3-dev", "westus2-dev"],
    "runs": [
        # westus3-dev has no H100: the first worker that admits it is westus2-dev
        _run("h100-pretrain", "admitted", "westus2-dev", "taugrid-h100-80gb", hosts=H100),
        _run(
            "h100-sweep",
            "pending",
            None,
            "taugrid-h100-80gb",
            reason="quota: nvidia.com/gpu in flavor taugrid-h100-80gb: the run requests 8, "
            "0 of the nominal 16 is unused",
        ),
        _run("a100-eval-1", "admitted", "westus3-dev", "taugrid-a100-80gb", hosts=W3_A100[:1]),
        _run("a100-eval-2", "admitted", "westus3-dev", "taugrid-a100-80gb", hosts=W3_A100[1:]),
        _run("a100-eval-3", "admitted", "westus2-dev", "taugrid-a100-80gb", hosts=[W2_A100]),
        _run(
            "a100-eval-4",
            "pending",
            None,
            "taugrid-a100-80gb",
            reason="admitted by the manager; no worker admits it",
            workers=[
                {
                    "worker": "westus3-dev",
                    "reason": "topology: no kubernetes.io/hostname domain holds 1 pods: "
                    'topology "taugrid-gpu-topology" doesn\'t allow to fit any of 1 pod(s). '
                    'Total nodes: 2; excluded: resource "cpu": 2',
                },
                {
                    "worker": "westus2-dev",
                    "reason": "quota: nvidia.com/gpu in flavor taugrid-a100-80gb: the run requests 1, "
                    "0 of the nominal 1 is unused",
                },
            ],
        ),
    ],
    "notes": [DISPATCH, NO_PREEMPTION],
}


@pytest.fixture
def fleet(tmp_path: Path) -> Path:
    project = fleet_project(tmp_path)
    run_build(project)
    return project


def test_m4_each_run_goes_to_the_first_worker_that_admits_it(fleet: Path) -> None:
    sim = run_fleet(SET, fleet)
    assert as_dict(sim) == EXPECTED
    text = as_text(sim)
    assert text.splitlines()[0] == (
        "simulate --fleet: manager fleet-hub, workers westus3-dev, westus2-dev, 6 runs: 4 admitted, 2 pending"
    )
    assert "  admitted  team-research/a100-eval-3  on westus2-dev (taugrid-a100-80gb)" in text


def test_m4_the_worker_order_decides(fleet: Path) -> None:
    fleet.write_text(fleet.read_text().replace("[westus3-dev, westus2-dev]", "[westus2-dev, westus3-dev]"))
    run_build(fleet)
    placed = {r["name"]: r["worker"] for r in as_dict(run_fleet(SET, fleet))["runs"]}
    assert placed == {
        "h100-pretrain": "westus2-dev",
        "h100-sweep": None,
        "a100-eval-1": "westus2-dev",  # westus2-dev first now: its one A100 host
        "a100-eval-2": "westus3-dev",
        "a100-eval-3": "westus3-dev",
        "a100-eval-4": None,
    }


def test_m4_the_example_project_gives_the_same_result() -> None:
    assert as_dict(run_fleet(SET, REPO / "taugen.yaml")) == EXPECTED


def test_m4_a_set_with_running_pods_is_refused(fleet: Path, tmp_path: Path) -> None:
    text = (
        SET.read_text()
        + "running:\n  - {node: aks-h100-16180339-vmss000000, requests: {nvidia.com/gpu: 8}}\n"
    )
    path = tmp_path / "set.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        run_fleet(path, fleet)
    [problem] = err.value.problems
    assert (problem.rule, problem.message, problem.line) == (
        "M4",
        "a fleet WorkloadSet has no running",
        text.splitlines().index("running:") + 1,
    )


def test_m4_a_project_without_a_fleet(tmp_path: Path) -> None:
    project = fleet_project(tmp_path, fleet="")
    with pytest.raises(InputError) as err:
        run_fleet(SET, project)
    assert [(p.rule, p.message) for p in err.value.problems] == [
        ("M4", "the project has no multikueue block")
    ]


def test_m4_cli_json(fleet: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from taugen.cli import main

    shutil.copy(SET, tmp_path / "fleet-set.yaml")
    result = CliRunner().invoke(
        main, ["simulate", "--fleet", "-c", str(fleet), str(tmp_path / "fleet-set.yaml"), "-o", "json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == EXPECTED


def test_m4_issue_34_a_worker_where_no_node_holds_one_pod_says_why(fleet: Path, tmp_path: Path) -> None:
    """Item 6 in the fleet: a worker's refusal carries the explanation preflight and simulate
    give when no node of the flavor holds one pod at all (here: cpu per pod above allocatable)."""
    doc = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadSet",
        "runs": [
            {
                "metadata": {"name": "a100-huge", "namespace": "team-research"},
                "createdAt": "2026-11-29T10:00:00Z",
                "profile": "a100-single-node",
                "resources": {"nvidia.com/gpu": 1, "cpu": "500", "memory": "180Gi"},
            }
        ],
    }
    workloads = tmp_path / "huge.yaml"
    workloads.write_text(json.dumps(doc))
    (found,) = as_dict(run_fleet(workloads, fleet))["runs"]
    kueue = (
        'Kueue: topology "taugrid-gpu-topology" doesn\'t allow to fit any of 1 pod(s). Total nodes: {n}; '
        'excluded: resource "cpu": {n}'
    )
    above = "cpu 500 per pod is above every node's allocatable (at most 23800m)"
    head = "topology: no kubernetes.io/hostname domain holds 1 pods; no node holds one pod: "
    assert (found["status"], found["reason"]) == ("pending", "admitted by the manager; no worker admits it")
    assert [(w["worker"], w["reason"]) for w in found["workers"]] == [
        ("westus3-dev", f"{head}1 not Ready; on the 2 left, {above}; {kueue.format(n=2)}"),
        ("westus2-dev", f"{head}{above}; {kueue.format(n=1)}"),
    ]
