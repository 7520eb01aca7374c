"""Groups (R51) seen by the rest of taugen: explain tenant's path of cohorts, diff's capacity
risk on a group's quota, validate on the built tree."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import run_build
from tests.unit.test_cohort_groups import GROUPS, TENANTS
from tests.unit.test_cohorts import cohort_project


def test_r51_explain_tenant_shows_its_path_of_cohorts(tmp_path: Path, run: Run) -> None:
    project = cohort_project(tmp_path, TENANTS, groups=GROUPS)
    result = run("explain", "tenant", "team-a", "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["queue"], found["cohort"]) == ("taugrid-team-a", "taugrid-llm")
    assert found["groups"] == [
        {
            "group": "llm",
            "cohort": "taugrid-llm",
            "parent": "taugrid-org",
            "classes": [{"gpuClass": "h200-141gb", "guaranteed": 12, "own": 6, "borrowingLimit": 4}],
        },
        {
            "group": "org",
            "cohort": "taugrid-org",
            "parent": "taugrid",
            "classes": [{"gpuClass": "h200-141gb", "guaranteed": 24, "own": 4, "lendingLimit": 8}],
        },
    ]
    h200 = next(c for c in found["classes"] if c["gpuClass"] == "h200-141gb")
    # Kueue's potentialAvailable: llm's subtree 12 + its borrowingLimit 4 = 16, less team-a's own 6
    assert (h200["guaranteed"], h200["borrowable"], h200["shared"]) == (6, 10, 8)
    assert h200["derivation"][0] == (
        "guaranteed 6: 50% of group llm's guarantee of 12 (R51) is 6; floor of each share, the largest "
        "remainders (ties: namespace) get one more (T4)"
    )
    text = run("explain", "tenant", "team-a", "-c", project).stdout.splitlines()
    assert text[2:5] == [
        "  cohorts (R51): taugrid-llm (group llm) -> taugrid-org (group org) -> taugrid (the cluster's, T1)",
        "  group llm: Cohort taugrid-llm, parent taugrid-org; "
        "h200-141gb guaranteed 12 (its own 6), borrowingLimit 4",
        "  group org: Cohort taugrid-org, parent taugrid; "
        "h200-141gb guaranteed 24 (its own 4), lendingLimit 8",
    ]


def test_r51_a_tenant_outside_the_groups_explains_as_before(tmp_path: Path, run: Run) -> None:
    project = cohort_project(tmp_path, TENANTS, groups=GROUPS)
    found = json.loads(run("explain", "tenant", "team-c", "-c", project, "-o", "json").stdout)
    assert (found["cohort"], "groups" in found) == ("taugrid", False)


def test_r51_diff_names_a_groups_quota_decrease_as_a_capacity_risk(tmp_path: Path, run: Run) -> None:
    """org 24 -> 16 H200: llm's 50% is 8 (was 12), team-a's 50% of it 4 (was 6)."""
    project = cohort_project(tmp_path, TENANTS, groups=GROUPS)
    run_build(project)
    shutil.copytree(tmp_path / "out", tmp_path / "before")
    smaller: list[dict[str, Any]] = [{**GROUPS[0], "guaranteed": {"h200-141gb": 16}}, GROUPS[1]]
    run_build(cohort_project(tmp_path, TENANTS, groups=smaller))
    result = run("diff", tmp_path / "before", tmp_path / "out", "-c", project, "-o", "json")
    changes = [
        (c["kind"], c["name"], c["headline"], [r["id"] for r in c["risks"]])
        for c in json.loads(result.stdout)["changes"]
    ]
    assert changes == [
        ("ClusterQueue", "taugrid-team-a", "team-a guaranteed h200-141gb 6 → 4", ["capacity"]),
        ("Cohort", "taugrid-llm", "Cohort taugrid-llm holds h200-141gb 12 → 8 GPUs", ["capacity"]),
        ("Cohort", "taugrid-org", "Cohort taugrid-org holds h200-141gb 24 → 16 GPUs", ["capacity"]),
        (
            "ClusterQueue",
            "taugrid",
            "ClusterQueue taugrid: flavor taugrid-h200-141gb nvidia.com/gpu 8 → 16",
            [],
        ),
        (
            "ClusterQueue",
            "taugrid-team-a",
            "ClusterQueue taugrid-team-a: flavor taugrid-h200-141gb nvidia.com/gpu 6 → 4",
            ["capacity"],
        ),
        (
            "Cohort",
            "taugrid-llm",
            "Cohort taugrid-llm: flavor taugrid-h200-141gb nvidia.com/gpu 6 → 4",
            ["capacity"],
        ),
        (
            "Cohort",
            "taugrid-org",
            "Cohort taugrid-org: flavor taugrid-h200-141gb nvidia.com/gpu 4 → 0",
            ["capacity"],
        ),
    ]


def test_r51_the_built_grouped_tree_validates(tmp_path: Path, run: Run) -> None:
    run_build(cohort_project(tmp_path, TENANTS, groups=GROUPS))
    result = run("validate", tmp_path / "out" / "c1")
    assert result.exit_code == 0, result.output


def test_r35_a_lost_lock_reads_the_groups_cohorts_too(tmp_path: Path) -> None:
    """R35 with R51: the marks are the sum over the cluster's whole cohort tree, the groups'
    Cohorts' own quota (org 4, llm 6 H200) and their queues' included: 32 H200, not 22."""
    project = cohort_project(tmp_path, TENANTS, groups=GROUPS)
    run_build(project)
    (tmp_path / "taugen.lock").unlink()
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h200-0")]))  # 8 of 32 H200 left
    run_build(project)
    lock = json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    assert lock["gpuQuota"] == {"h100-80gb": 8, "h200-141gb": 32}
