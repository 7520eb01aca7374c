"""Issue 35's "done when" (SPEC §10, §15: T2, T3, R47-R51): tests/data/team-llm states "team-llm is
guaranteed 64 H200, may fall back to H100, borrows up to 32, is never preempted by batch, and shares
the rest fairly with weight 2 under the org cohort"; it builds into Kueue objects the schemas
accept, `explain tenant` explains it, and a generated week of runs simulates against it.

The simulate decisions are in one test, `test_simulate_a_week_decisions`: Kueue's fair sharing,
as the project records it (R49, R52)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO, Run
from tests.support.helpers import read_objects
from tests.support.week import text as week_text

PROJECT = REPO / "tests" / "data" / "team-llm"
MANAGED = {"app.kubernetes.io/managed-by": "taugen"}
SKIP = "SkipDryRunOnMissingResource=true"
GPU, SLOT, CPU, H200, H100 = (
    "nvidia.com/gpu",
    "tau.azure.com/torchrun-host-slot",
    "taugrid-default-cpu",
    "taugrid-h200-141gb",
    "taugrid-h100-80gb",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(PROJECT, tmp_path / "team-llm")
    return tmp_path / "team-llm" / "taugen.yaml"


def _meta(name: str, wave: str) -> dict[str, Any]:
    annotations = {"argocd.argoproj.io/sync-options": SKIP, "argocd.argoproj.io/sync-wave": wave}
    return {"name": name, "labels": MANAGED, "annotations": annotations}


def _gpus(gpus: int, slots: int, borrow: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """The GPU and slot resources of a flavor (T2: slots scale as the GPUs, limits too)."""
    found: list[dict[str, Any]] = [
        {"name": GPU, "nominalQuota": str(gpus)},
        {"name": SLOT, "nominalQuota": str(slots)},
    ]
    if borrow is not None:
        found = [{"borrowingLimit": str(b), **r} for b, r in zip(borrow, found, strict=True)]
    return found


def _queue_flavors(
    h200: tuple[int, int], h100: tuple[int, int], borrow: tuple[int, int] | None = None
) -> list[dict[str, Any]]:
    """R47: every queue holds the flavors in llm-train's order, H200 before H100 (R25 alone
    would put h100-80gb first, by name)."""
    cpu = [{"name": "cpu", "nominalQuota": "100k"}, {"name": "memory", "nominalQuota": "100Ti"}]
    return [
        {"name": CPU, "resources": [*cpu, *_gpus(0, 0)]},
        {"name": H200, "resources": [*cpu, *_gpus(*h200, borrow)]},
        {"name": H100, "resources": [*cpu, *_gpus(*h100)]},
    ]


def _queue(
    name: str, cohort: str, namespace: str, flavors: list[dict[str, Any]], **spec: Any
) -> dict[str, Any]:
    selector = {
        "matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": [namespace]}]
    }
    return {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "ClusterQueue",
        "metadata": _meta(name, "0"),
        "spec": {
            "cohortName": cohort,
            **({"fairSharing": spec.pop("fairSharing")} if "fairSharing" in spec else {}),
            "namespaceSelector": selector,
            "preemption": spec.pop("preemption"),
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [{"coveredResources": ["cpu", "memory", GPU, SLOT], "flavors": flavors}],
        },
    }


T2 = {
    "borrowWithinCohort": {"policy": "LowerPriority"},
    "reclaimWithinCohort": "Any",
    "withinClusterQueue": "LowerPriority",
}
NEVER = {
    "borrowWithinCohort": {"policy": "Never"},
    "reclaimWithinCohort": "Never",
    "withinClusterQueue": "LowerPriority",
}


def test_the_committed_tree_is_what_a_build_writes(project: Path, run: Run) -> None:
    """out/ and taugen.lock of tests/data/team-llm are committed, so that the docs' commands run
    in place; regenerate them with `taugen build -c tests/data/team-llm/taugen.yaml`."""
    result = run("build", "--check", "-c", project)
    assert result.exit_code == 0, result.output


def test_build_writes_the_statement_as_kueue_objects(project: Path, run: Run) -> None:
    shutil.rmtree(project.parent / "out")
    (project.parent / "taugen.lock").unlink()
    result = run("build", "-c", project)  # a new cluster's first build (R26: a new quota history)
    assert result.exit_code == 0, result.output
    found = read_objects(project.parent / "out" / "llm-east")
    cohorts = {k: v for k, v in found.items() if k.startswith(("ClusterQueue/", "Cohort/"))}
    org_flavors = [{"name": H200, "resources": _gpus(16, 2)}, {"name": H100, "resources": _gpus(16, 2)}]
    assert cohorts == {
        "Cohort/taugrid": {
            "apiVersion": "kueue.x-k8s.io/v1beta2",
            "kind": "Cohort",
            "metadata": _meta("taugrid", "-1"),
        },
        # R51: org holds 100% of the H200 (96) and 48 H100: what team-llm and team-batch are not
        # guaranteed is its own, 96 - 64 - 16 = 16 H200 and 48 - 32 = 16 H100
        "Cohort/taugrid-org": {
            "apiVersion": "kueue.x-k8s.io/v1beta2",
            "kind": "Cohort",
            "metadata": _meta("taugrid-org", "-1"),
            "spec": {
                "parentName": "taugrid",
                "resourceGroups": [{"coveredResources": [GPU, SLOT], "flavors": org_flavors}],
            },
        },
        # T2: 64 H200 (8 slots), borrowing at most 32 (4 slots); weight 2; T2's preemption
        "ClusterQueue/taugrid-team-llm": _queue(
            "taugrid-team-llm",
            "taugrid-org",
            "team-llm",
            _queue_flavors((64, 8), (0, 0), borrow=(32, 4)),
            fairSharing={"weight": "2"},
            preemption=T2,
        ),
        # R48: reclaimWithinCohort Never (and so borrowWithinCohort Never): batch never preempts
        # another queue's work, team-llm's included
        "ClusterQueue/taugrid-team-batch": _queue(
            "taugrid-team-batch",
            "taugrid-org",
            "team-batch",
            _queue_flavors((16, 2), (32, 4)),
            fairSharing={"weight": "1"},
            preemption=NEVER,
        ),
        # T3: the shared queue keeps what no tenant or group holds: no H200, 64 - 48 = 16 H100
        "ClusterQueue/taugrid": _queue(
            "taugrid",
            "taugrid",
            "team-dev",
            _queue_flavors((0, 0), (16, 2)),
            preemption={"withinClusterQueue": "LowerPriority"},
        ),
    }
    assert found["WorkloadPriorityClass/taugrid-batch"]["value"] == 500  # R50
    checked = run("validate", project.parent / "out" / "llm-east")  # the Kueue schemas accept them
    assert checked.exit_code == 0, checked.output


def test_the_built_objects_pass_kubeconform(project: Path, run: Run, tmp_path: Path) -> None:
    """The workspace's kubeconform with Kueue's schemas (skipped where ../shared is absent)."""
    from tests.support.kubeconform import kubeconform

    assert run("build", "-c", project).exit_code == 0
    done = kubeconform([project.parent / "out" / "llm-east"], tmp_path)
    assert done.returncode == 0 and "Invalid: 0, Errors: 0" in done.stdout, done.stdout


def test_explain_tenant_explains_the_statement(project: Path, run: Run) -> None:
    result = run("explain", "tenant", "team-llm", "-c", project)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "tenant team-llm of cluster llm-east: LocalQueue taugrid -> taugrid-team-llm in cohort taugrid-org, "
        "weight 2\n"
        "  preemption (T2's): reclaimWithinCohort Any, borrowWithinCohort LowerPriority, withinClusterQueue "
        "LowerPriority\n"
        "  cohorts (R51): taugrid-org (group org) -> taugrid (the cluster's, T1)\n"
        "  group org: Cohort taugrid-org, parent taugrid; h100-80gb guaranteed 48 (its own 16); h200-141gb "
        "guaranteed 96 (its own 16)\n"
        "  flavor order (R47): h200-141gb, h100-80gb: Kueue tries them in this order (profile llm-train "
        "lists h200-141gb, h100-80gb)\n"
        "  h100-80gb: guaranteed 0 GPUs, 0 slots; may borrow 64; shared queue 16\n"
        "    not guaranteed: its queue's nominal quota is 0 and it may borrow 64 from the cohort\n"
        "  h200-141gb: guaranteed 64 GPUs, 8 slots; may borrow 32; shared queue 0\n"
        "    guaranteed 64: a count, taken as written (T4)\n"
        "    slots 8 = floor(12 Ready slots * 64 / 96) (T2)\n"
        "    borrowingLimit 32 GPUs, 4 slots scaled the same way (T2)\n"
        "    lendingLimit: none, all of it may be lent (T2)\n"
        "    may borrow 32: what the cohort tree lends it when every other queue is idle, within its own and "
        "its groups' borrowingLimit (R51)\n"
    )


def test_the_week_is_what_its_generator_writes() -> None:
    """tests/data/team-llm/week.yaml is `python -m tests.support.week`'s output, a few hundred runs
    over seven days."""
    committed = (PROJECT / "week.yaml").read_text(encoding="utf-8")
    assert committed == week_text()
    runs = yaml.safe_load(committed)["runs"]
    days = sorted({r["createdAt"][:10] for r in runs})
    assert (len(runs), days[0], days[-1], len(days)) == (252, "2026-11-23", "2026-11-29", 7)


def _simulate(project: Path, run: Run) -> dict[str, Any]:
    result = run("simulate", project.parent / "week.yaml", "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def _decision(runs: list[dict[str, Any]], name: str) -> tuple[Any, ...]:
    found = next(r for r in runs if r["name"] == name)
    victims = [(v["run"], v["reason"]) for v in found["preempted"]]
    return found["status"], found["flavor"], found["clusterQueue"], found["reason"], victims


def test_simulate_a_week_decisions(project: Path, run: Run) -> None:
    """The one test of simulate's decisions on this project, under the fair sharing its Kueue is
    recorded with (R49, R52: the DRS order and both preemption strategies). team-llm's first six
    runs hold all 12 H200 hosts: its 64 and the 32 it borrows. Then its runs fall back to H100
    (R47: nominal 0, borrowed from org and the shared queue); team-batch's H200 run waits instead
    of reclaiming its 16 (R48: reclaimWithinCohort Never), and so do its H100 runs once team-llm
    borrows their quota. With T2's preemption instead, the same batch run reclaims its quota from
    team-llm's newest H200 run, and fair sharing's strategies then trade runs both ways between
    team-llm and team-batch."""
    run("build", "-c", project)
    found = _simulate(project, run)
    runs = found["runs"]
    counts = {s: sum(r["status"] == s for r in runs) for s in ("admitted", "pending", "preempted")}
    assert (len(runs), counts) == (252, {"admitted": 16, "pending": 236, "preempted": 0})
    assert found["totals"] == [
        {"flavor": H100, "gpus": {"requested": 578, "admitted": 64, "free": 0}},
        {"flavor": H200, "gpus": {"requested": 2096, "admitted": 96, "free": 0}},
    ]
    assert found["cycles"] == {"ran": 106, "limit": None, "cutOff": []}
    h200_by_llm = sum(8 * r["pods"] for r in runs if r["status"] == "admitted" and r["flavor"] == H200)
    assert h200_by_llm == 96  # 64 guaranteed + 32 borrowed, and no more (borrowingLimit)
    assert _decision(runs, "llm-005") == ("admitted", H200, "taugrid-team-llm", None, [])
    assert _decision(runs, "llm-006") == ("admitted", H100, "taugrid-team-llm", None, [])  # fell back
    assert _decision(runs, "llm-008") == (  # four hosts: no class has them left for it
        "pending",
        H200,
        "taugrid-team-llm",
        "quota: nvidia.com/gpu in flavor taugrid-h200-141gb: the run requests 32, 0 is free to ClusterQueue "
        "taugrid-team-llm (nominal 64, cohort taugrid-org); fair sharing preempts no admitted run for it",
        [],
    )
    assert _decision(runs, "batch-000") == (
        "pending",
        H200,
        "taugrid-team-batch",
        "quota: nvidia.com/gpu in flavor taugrid-h200-141gb: the run requests 8, 0 is free to ClusterQueue "
        "taugrid-team-batch (nominal 16, cohort taugrid-org); fair sharing preempts no admitted run for it",
        [],
    )
    assert not [r for r in runs if r["status"] == "preempted"]  # nobody preempts team-llm

    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace("        preemption: {reclaimWithinCohort: Never}", ""), encoding="utf-8")
    run("build", "-c", project)
    t2 = _simulate(project, run)["runs"]
    reclaimed = [("team-llm/llm-005", "InCohortReclamation")]
    assert _decision(t2, "batch-000") == ("admitted", H200, "taugrid-team-batch", None, reclaimed)
    assert _decision(t2, "llm-005") == (
        "preempted",
        H200,
        "taugrid-team-llm",
        "preempted by team-batch/batch-000: reclamation within the cohort (InCohortReclamation)",
        [],
    )
    fair = "Fair Sharing within the cohort (InCohortFairSharing)"
    reclaim = "reclamation within the cohort (InCohortReclamation)"
    assert [(r["name"], r["reason"]) for r in t2 if r["status"] == "preempted"] == [
        ("llm-004", f"preempted by team-batch/batch-004: {fair}"),
        ("llm-005", f"preempted by team-batch/batch-000: {reclaim}"),
        ("dev-003", f"preempted by team-batch/batch-005: {reclaim}"),
        ("llm-007", f"preempted by team-batch/batch-007: {reclaim}"),
        ("llm-009", f"preempted by team-batch/batch-005: {reclaim}"),
        ("dev-007", f"preempted by team-batch/batch-009: {fair}"),
        ("batch-004", f"preempted by team-llm/llm-010: {fair}"),
        ("batch-006", f"preempted by team-llm/llm-010: {fair}"),
    ]
