"""R47, R52: simulate assigns a run with fallback classes a flavor as Kueue's flavor assigner
does (v0.19.2 flavorassigner.go findFlavorForPodSets): the listed classes' flavors in the queue's
order, the first that fits; a flavor whose topology cannot place the run does not fit. The
choice cases of Kueue's TestSchedule are in test_scheduler_vectors.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.lab import lab_project
from tests.support.unit import profile

SET = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lab_project(
        tmp_path_factory.mktemp("lab"),
        profiles={
            "h200-else-a100": profile("h200-else-a100", ["h200-141gb", "a100-80gb"], "same-network-domain")
        },
    )


def _run(name: str, prof: str, workers: int, at: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": f"2026-11-29T{at}:00Z",
        "profile": prof,
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8},
    }


def _simulate(run: Run, project: Path, runs: list[dict[str, Any]]) -> dict[str, Any]:
    path = write_yaml(project.parent / "sets" / "fallback.yaml", {**SET, "runs": runs})
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    return {r["name"]: (r["status"], r["flavor"], r.get("hosts")) for r in json.loads(result.stdout)["runs"]}


def test_r47_the_first_listed_class_when_it_fits(run: Run, project: Path) -> None:
    found = _simulate(run, project, [_run("two", "h200-else-a100", 2, "10:00")])
    assert found == {
        "two": (
            "admitted",
            "taugrid-h200-141gb",
            [{"host": "h200-b0", "count": 1}, {"host": "h200-b1", "count": 1}],
        )
    }


def test_r47_the_next_class_when_the_first_has_no_host_left(run: Run, project: Path) -> None:
    """h200-any takes the five Ready H200 hosts: 8 of H200's 48 GPUs of quota are left, but no
    host, so the H200 flavor cannot place the run (TAS) and the A100 flavor takes it."""
    found = _simulate(
        run, project, [_run("fill", "h200-any", 5, "09:00"), _run("next", "h200-else-a100", 1, "10:00")]
    )
    assert found["next"] == ("admitted", "taugrid-a100-80gb", [{"host": "a100-0", "count": 1}])


def test_r47_pending_on_the_last_class_tried_when_none_places_it(run: Run, project: Path) -> None:
    """Kueue's assigner picks a flavor by quota and checks topology after (flavorassigner.go
    assignFlavors): H200 has 8 GPUs of quota left for 16, so A100 is chosen by quota; its
    topology cannot place the run, which stays pending on A100, the last flavor it tried
    (LastTriedFlavorIdx reached the end: the next scan would start at H200 again)."""
    path = write_yaml(
        project.parent / "sets" / "fallback.yaml",
        {**SET, "runs": [_run("fill", "h200-any", 5, "09:00"), _run("wide", "h200-else-a100", 2, "10:00")]},
    )
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    (wide,) = [r for r in found["runs"] if r["name"] == "wide"]
    reason = (
        "topology: no tau.azure.com/network-domain domain holds 2 pods: "
        'topology "taugrid-gpu-topology" allows to fit only 1 out of 2 pod(s)'
    )
    assert (wide["status"], wide["flavor"], wide["reason"]) == ("pending", "taugrid-a100-80gb", reason)
    assert found["cycles"] == {"ran": 2, "limit": None, "cutOff": []}


def test_r47_an_admitted_run_holds_the_flavor_of_its_planned_hosts(run: Run, project: Path) -> None:
    given = {**_run("given", "h200-else-a100", 1, "08:00"), "admitted": {"ranks": {"0": "a100-0"}}}
    path = write_yaml(
        project.parent / "sets" / "given.yaml",
        {
            **SET,
            "runs": [given],
            "running": [{"node": "a100-0", "requests": {"nvidia.com/gpu": 8}, "run": "given", "rank": 0}],
        },
    )
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["runs"]
    assert (found["status"], found["flavor"]) == ("admitted", "taugrid-a100-80gb")
