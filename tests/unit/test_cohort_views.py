"""A cohort seen by the rest of taugen: the lost lock (R35), validate (cohort-shape), explain
tenant and report (SPEC §10)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from taugen.commands.report.capacity import tenant_rows
from taugen.commands.report.model import TenantRow
from taugen.context.session import load_view
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import objects, run_build
from tests.unit.test_cohorts import TEAM_A, TEAM_B, TEAM_C, cohort_project


def test_r35_a_lost_lock_reads_the_marks_from_every_queue_of_the_cohort(tmp_path: Path) -> None:
    """The shared queue holds only what is not guaranteed: the marks are the cohort's sums."""
    project = cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C])
    run_build(project)
    (tmp_path / "taugen.lock").unlink()
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h200-0")]))  # 8 of 32 H200 left
    run_build(project)
    lock = json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    assert lock["gpuQuota"] == {"h100-80gb": 8, "h200-141gb": 32}
    assert lock["guaranteed"] == {"team-a": {"h100-80gb": 2, "h200-141gb": 16}, "team-b": {"h200-141gb": 8}}


def test_cohort_shape_a_queue_with_other_flavors_is_reported(tmp_path: Path, run: Run) -> None:
    run_build(cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C]))
    path = tmp_path / "out" / "c1" / "clusterqueue.yaml"
    docs = list(yaml.safe_load_all(path.read_text()))
    team_b = next(d for d in docs if d["metadata"]["name"] == "taugrid-team-b")
    del team_b["spec"]["resourceGroups"][0]["flavors"][1]  # no H100 flavor: nothing to borrow it with
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    result = run("validate", tmp_path / "out" / "c1")
    assert result.exit_code == 1, result.output
    findings = [line for line in result.stdout.splitlines() if "(cohort-shape)" in line]
    assert len(findings) == 1 and "ClusterQueue/taugrid-team-b" in findings[0]
    assert "differ from ClusterQueue taugrid's in cohort taugrid" in findings[0]


def test_the_built_cohort_validates(tmp_path: Path, run: Run) -> None:
    run_build(cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C]))
    result = run("validate", tmp_path / "out" / "c1")
    assert result.exit_code == 0, result.output


def test_explain_tenant_derives_each_number(tmp_path: Path, run: Run) -> None:
    project = cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C])
    result = run("explain", "tenant", "team-a", "-c", project, "--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["queue"], found["cohort"], found["weight"]) == ("taugrid-team-a", "taugrid", 3)
    h200 = next(c for c in found["classes"] if c["gpuClass"] == "h200-141gb")
    assert h200 == {
        "gpuClass": "h200-141gb",
        "classQuota": 32,
        "inventoryGpus": 32,
        "readySlots": 4,
        "guaranteed": 16,
        "slots": 2,
        "borrowable": 8,
        "shared": 8,
        "derivation": [
            "guaranteed 16: 50% of the class quota 32 (R26: the inventory's allocatable GPUs) is 16; "
            "floor of each share, the largest remainders (ties: namespace) get one more (T4)",
            "slots 2 = floor(4 Ready slots * 16 / 32) (T2)",
            "borrowingLimit 8 GPUs, 1 slots scaled the same way (T2)",
            "lendingLimit 4 GPUs, 0 slots scaled the same way (T2)",
            "may borrow 8: the other queues lend 16, within its borrowingLimit",
        ],
    }


def test_explain_tenant_names_an_unknown_tenant(tmp_path: Path, run: Run) -> None:
    project = cohort_project(tmp_path, [TEAM_A, TEAM_C])
    result = run("explain", "tenant", "team-z", "-c", project)
    assert result.exit_code == 2
    assert "cluster c1 has no tenant team-z" in result.output and "tenants: team-a, team-c" in result.output


def test_report_rows_guaranteed_borrowable_shared(tmp_path: Path) -> None:
    """team-a borrows at most 8 H200 (its limit) and any H100 the others lend: team-b has none
    of it, the shared queue lends its 6; team-c (best effort) borrows what the guaranteed
    tenants lend: team-a 4 H200 (lendingLimit) + team-b 8, and team-a's 2 H100."""
    view = load_view(cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C]), None)
    assert tenant_rows(view.cluster, view.quotas, view.guarantees) == (
        TenantRow("team-a", "h100-80gb", 2, 6, 6),
        TenantRow("team-a", "h200-141gb", 16, 8, 8),
        TenantRow("team-b", "h100-80gb", 0, 8, 6),
        TenantRow("team-b", "h200-141gb", 8, 12, 8),
        TenantRow("team-c", "h100-80gb", 0, 2, 6),
        TenantRow("team-c", "h200-141gb", 0, 12, 8),
    )
    assert objects(tmp_path) == {}  # nothing was built
