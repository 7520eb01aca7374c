"""R47, K6: `taugen simulate` gives each pod set of a JobSet run with fallback classes the
flavor Kueue assigns it (v0.19.2 flavorassigner.go: per pod set, on top of the quota the earlier
pod sets of the run take), and names each pod set's flavor in the text and JSON answers."""

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
JOBS = [{"name": "head", "workers": 1}, {"name": "workers", "workers": 3, "resources": {"nvidia.com/gpu": 4}}]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lab_project(
        tmp_path_factory.mktemp("lab"),
        profiles={
            "h200-else-a100": profile("h200-else-gb200", ["h200-141gb", "gb200-186gb"], "unconstrained")
        },
    )


def _run(name: str, prof: str, at: str, **fields: Any) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": f"2026-11-29T{at}:00Z",
        "profile": prof,
        "resources": {"nvidia.com/gpu": 8},
        **fields,
    }


def _set(tmp_path: Path) -> Path:
    runs = [
        _run("fill", "h200-any", "09:00", workers=4),
        _run("js", "h200-else-gb200", "10:00", workload="jobset", jobs=JOBS),
    ]
    return write_yaml(tmp_path / "jobset.yaml", {**SET, "runs": runs})


def test_a_jobsets_pod_sets_land_on_two_flavors(run: Run, project: Path, tmp_path: Path) -> None:
    """`fill` holds 32 of H200's 48 GPUs of quota; `head` (8) fits H200's 16 left, `workers`
    (12) on top of it would need 20: Kueue assigns them the next class, GB200."""
    result = run("simulate", _set(tmp_path), "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    (found,) = [r for r in json.loads(result.stdout)["runs"] if r["name"] == "js"]
    gb200 = [{"host": f"gb200-a{i}", "count": 1} for i in range(3)]
    assert (found["status"], found["flavor"], found["podSets"]) == (
        "admitted",
        "taugrid-h200-141gb",
        [
            {
                "name": "head",
                "pods": 1,
                "hosts": [{"host": "h200-b1", "count": 1}],
                "flavor": "taugrid-h200-141gb",
            },
            {"name": "workers", "pods": 3, "hosts": gb200, "flavor": "taugrid-gb200-186gb"},
        ],
    )
    text = run("simulate", _set(tmp_path), "-c", project)
    assert [line.strip() for line in text.stdout.splitlines() if "pod set" in line] == [
        "pod set head (1 pod, taugrid-h200-141gb)  h200-b1 x1",
        "pod set workers (3 pods, taugrid-gb200-186gb)  gb200-a0 x1, gb200-a1 x1, gb200-a2 x1",
    ]
