"""R50: a project's priority tiers beside TauGrid's two (R20, R21): the compiled classes, a run
rendered and simulated with a declared tier, and a tier the project does not declare refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.compile.common import priority_classes
from taugen.core.errors import InputError
from taugen.models.tiers import Tier, Tiers
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import build_lab, context_of, objects_of, run_doc

TIERS = """
priorityTiers:
  - {name: urgent, value: 1500, description: "Incidents: preempts every other tier"}
  - {name: batch, value: 500}
"""
MANAGED = {"app.kubernetes.io/managed-by": "taugen"}
WAVE = {"argocd.argoproj.io/sync-wave": "-2"}
KUEUE_WAVE = {"argocd.argoproj.io/sync-options": "SkipDryRunOnMissingResource=true", **WAVE}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lab project (tests/cases/runs/project) with tiers urgent 1500 and batch 500, built."""
    root = tmp_path_factory.mktemp("tiers")
    build_lab(root)
    path = root / "taugen.yaml"
    path.write_text(path.read_text(encoding="utf-8") + TIERS, encoding="utf-8")
    build(BuildOptions(project_file=path))
    return path


def _objects(project: Path, name: str) -> list[dict[str, Any]]:
    return objects_of((project.parent / "out" / "lab" / name).read_text(encoding="utf-8"))


def _pod_class(name: str, value: int, description: str) -> dict[str, Any]:
    return {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": name, "labels": MANAGED, "annotations": WAVE},
        "description": description,
        "globalDefault": False,
        "preemptionPolicy": "PreemptLowerPriority",
        "value": value,
    }


def _workload_class(name: str, value: int, description: str | None = None) -> dict[str, Any]:
    return {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "WorkloadPriorityClass",
        "metadata": {"name": name, "labels": MANAGED, "annotations": KUEUE_WAVE},
        **({"description": description} if description else {}),
        "value": value,
    }


def test_r50_each_tier_is_a_pair_beside_taugrids_two(project: Path) -> None:
    assert _objects(project, "priorityclasses.yaml") == [
        _pod_class("taugrid-batch", 500, "taugen tier batch: workloads of this tier"),
        _pod_class("taugrid-default", 1000, "taugen tier default: workloads of this tier"),
        _pod_class("taugrid-priority", 1200, "taugen tier priority: workloads of this tier"),
        _pod_class("taugrid-urgent", 1500, "Incidents: preempts every other tier"),
    ]
    assert _objects(project, "workloadpriorityclasses.yaml") == [
        _workload_class("taugrid-batch", 500),
        _workload_class("taugrid-default", 1000),
        _workload_class("taugrid-priority", 1200),
        _workload_class("taugrid-urgent", 1500, "Incidents: preempts every other tier"),
    ]


def test_r50_the_declared_order_does_not_change_the_objects() -> None:
    batch, urgent = Tier(name="batch", value=500), Tier(name="urgent", value=1500)
    forward = [m.obj for m in priority_classes(Tiers.of([batch, urgent]))]
    assert forward == [m.obj for m in priority_classes(Tiers.of([urgent, batch]))]
    assert [o["metadata"]["name"] for o in forward] == [
        "taugrid-batch",
        "taugrid-default",
        "taugrid-priority",
        "taugrid-urgent",
    ]


def test_r50_a_run_of_a_declared_tier_renders_its_classes(run: Run, project: Path) -> None:
    doc = run_doc("h200-train", policy={"priority_tier": "urgent"})
    result = run("render", write_yaml(project.parent / "runs" / "urgent.yaml", doc), "-c", project)
    assert result.exit_code == 0, result.output
    (job,) = objects_of(result.stdout)
    assert job["metadata"]["labels"]["kueue.x-k8s.io/priority-class"] == "taugrid-urgent"
    assert job["spec"]["template"]["spec"]["priorityClassName"] == "taugrid-urgent"


def test_r50_a_run_of_an_undeclared_tier_is_refused_at_it(project: Path) -> None:
    doc = run_doc("h200-train", policy={"priority_tier": "urgnet"})
    with pytest.raises(InputError) as err:
        context_of(project, doc, "typo.yaml")
    (problem,) = err.value.problems
    # the run file as write_yaml writes it: `policy:` on line 17, `  priority_tier: urgnet` below
    assert (problem.path.name, problem.line, problem.col, problem.rule) == ("typo.yaml", 18, 18, "R50")
    assert problem.message == (
        "priority tier 'urgnet' is not one of the project's: batch (500), default (1000), "
        "priority (1200), urgent (1500)"
    )
    assert (
        problem.hint
        == "did you mean 'urgent'? name one of them, or declare it in priorityTiers: of taugen.yaml"
    )


def test_r50_without_tiers_a_run_naming_one_is_refused(tmp_path: Path) -> None:
    lab = build_lab(tmp_path)
    with pytest.raises(InputError) as err:
        context_of(lab, run_doc("h200-train", policy={"priority_tier": "urgent"}))
    assert [p.rule for p in err.value.problems] == ["R50"]


SIMULATED = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: WorkloadSet
runs:
  # oldest first: FIFO alone would admit low and mid; the tiers' values admit high and mid
  - {metadata: {name: low, namespace: team-b}, createdAt: "2026-11-29T09:00:00Z", profile: gb200-island,
     policy: {priority_tier: batch}, workers: 2, resources: {nvidia.com/gpu: 4}}
  - {metadata: {name: mid, namespace: team-b}, createdAt: "2026-11-29T10:00:00Z", profile: gb200-island,
     workers: 2, resources: {nvidia.com/gpu: 4}}
  - {metadata: {name: high, namespace: team-b}, createdAt: "2026-11-29T11:00:00Z", profile: gb200-island,
     policy: {priority_tier: urgent}, workers: 2, resources: {nvidia.com/gpu: 4}}
"""


def test_r50_simulate_orders_three_tiers_by_their_values(run: Run, project: Path) -> None:
    """S2: priority first, then createdAt. 20 GB200 GPUs hold two of the three 8-GPU runs."""
    workloads = project.parent / "tiers-workloads.yaml"
    workloads.write_text(SIMULATED, encoding="utf-8")
    result = run("simulate", workloads, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["runs"]
    assert [(r["name"], r["priority"], r["status"]) for r in runs] == [
        ("high", 1500, "admitted"),
        ("mid", 1000, "admitted"),
        ("low", 500, "pending"),
    ]
    assert runs[2]["reason"] == (
        "quota: nvidia.com/gpu in flavor taugrid-gb200-186gb: the run requests 8, "
        "4 of the nominal 20 is unused"
    )


def test_r50_the_catalog_names_a_profiles_declared_tier(tmp_path: Path) -> None:
    lab = build_lab(tmp_path)
    (lab.parent / "profiles" / "h200-batch.yaml").write_text(
        yaml.safe_dump(
            {
                "apiVersion": "taugen.tau.azure.com/v1alpha1",
                "kind": "WorkloadProfile",
                "metadata": {"name": "h200-batch"},
                "policy": {"gpu_class": "h200-141gb", "priority_tier": "batch"},
            }
        ),
        encoding="utf-8",
    )
    lab.write_text(lab.read_text(encoding="utf-8") + TIERS, encoding="utf-8")
    build(BuildOptions(project_file=lab))
    (catalog,) = objects_of((lab.parent / "out" / "lab" / "profile-catalog.yaml").read_text(encoding="utf-8"))
    entries = {e["name"]: e for e in yaml.safe_load(catalog["data"]["profiles.yaml"])["profiles"]}
    assert entries["h200-batch"]["priorityClass"] == "taugrid-batch"
    assert entries["h200-batch"]["policy"]["priority_tier"] == "batch"
