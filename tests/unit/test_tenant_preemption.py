"""R48: a guaranteed tenant's own `preemption` (Kueue's ClusterQueuePreemption values) on its
ClusterQueue, T2's values by default; the pair Kueue refuses (clusterqueue_webhook.go
validatePreemption, and the CRD's CEL rule: reclaimWithinCohort Never with a borrowWithinCohort
policy other than Never) is refused at its line; explain names it, diff flags a change, and
simulate preempts (or not) by it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory
from tests.support.runs import CASES, PROJECT
from tests.support.unit import objects, problems_of, run_build, write_project

T2 = {
    "reclaimWithinCohort": "Any",
    "borrowWithinCohort": {"policy": "LowerPriority"},
    "withinClusterQueue": "LowerPriority",
}
OWN = {
    "reclaimWithinCohort": "LowerPriority",
    "borrowWithinCohort": {"policy": "LowerPriority", "maxPriorityThreshold": 1000},
    "withinClusterQueue": "Never",
}


def _project(tmp_path: Path, preemption: Any, guaranteed: bool = True) -> Path:
    tenants = ("team-a", "team-b")
    project = write_project(tmp_path, inventory([gpu_node(f"h200-{i}") for i in range(4)]), tenants=tenants)
    doc = yaml.safe_load(project.read_text())
    team_a = doc["clusters"][0]["tenants"][0]
    if guaranteed:
        team_a["guaranteed"] = {"h200-141gb": 16}
    team_a["preemption"] = preemption
    project.write_text(yaml.safe_dump(doc, sort_keys=False))
    return project


def test_r48_the_tenant_queue_takes_its_own_preemption_the_others_keep_t2s(tmp_path: Path) -> None:
    run_build(_project(tmp_path, OWN))
    found = objects(tmp_path)
    assert found["ClusterQueue/taugrid-team-a"]["spec"]["preemption"] == OWN
    assert found["ClusterQueue/taugrid"]["spec"]["preemption"] == {
        "withinClusterQueue": "LowerPriority"
    }  # T3


def test_r48_a_tenant_that_never_reclaims_never_borrows_by_preempting(tmp_path: Path) -> None:
    run_build(_project(tmp_path, {"reclaimWithinCohort": "Never"}))
    assert objects(tmp_path)["ClusterQueue/taugrid-team-a"]["spec"]["preemption"] == {
        "reclaimWithinCohort": "Never",
        "borrowWithinCohort": {"policy": "Never"},
        "withinClusterQueue": "LowerPriority",
    }


@pytest.mark.parametrize(
    ("preemption", "message"),
    [
        (
            {"reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "LowerPriority"}},
            "reclaimWithinCohort Never with borrowWithinCohort.policy LowerPriority: Kueue refuses the pair",
        ),
        (
            {"borrowWithinCohort": {"policy": "Never", "maxPriorityThreshold": 100}},
            "borrowWithinCohort sets maxPriorityThreshold with policy Never: it bounds nothing",
        ),
    ],
)
def test_r48_what_kueue_refuses_or_does_nothing_is_refused_at_its_line(
    tmp_path: Path, preemption: dict[str, Any], message: str
) -> None:
    problems = problems_of(lambda: run_build(_project(tmp_path, preemption)))
    where = "clusters.0.tenants.0.preemption" + (".borrowWithinCohort" if "bounds" in message else "")
    assert [(p.rule, p.message) for p in problems] == [("R48", f"{where}: {message}")]
    assert not (tmp_path / "out").exists()


def test_r48_kueues_refusal_is_unknown_to_a_value_it_accepts() -> None:
    """The other values of each field pass: the check is the one pair, not a guess."""
    from taugen.models.preemption import TenantPreemption

    for reclaim in ("LowerPriority", "Any"):
        for within in ("Never", "LowerPriority", "LowerOrNewerEqualPriority"):
            found = TenantPreemption.model_validate(
                {"reclaimWithinCohort": reclaim, "withinClusterQueue": within}
            )
            assert found.as_spec()["borrowWithinCohort"] == {"policy": "LowerPriority"}


def test_r48_preemption_without_a_guarantee_has_no_queue_to_go_on(tmp_path: Path) -> None:
    problems = problems_of(lambda: run_build(_project(tmp_path, OWN, guaranteed=False)))
    assert [(p.rule, p.message) for p in problems] == [
        (
            "T2",
            "tenant team-a sets preemption without guaranteed: it shares the ClusterQueue taugrid with "
            "every tenant that has no guarantee",
        )
    ]


def test_r48_a_kai_tenant_cannot_set_kueues_preemption(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]), scheduler="kai")
    doc = yaml.safe_load(project.read_text())
    doc["clusters"][0]["tenants"][0]["preemption"] = OWN
    project.write_text(yaml.safe_dump(doc, sort_keys=False))
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.message, p.hint) for p in problems] == [
        (
            "R48",
            "tenant team-a sets preemption, a setting of Kueue's ClusterQueues",
            "remove preemption: KAI preempts by its own rules (priority and over-quota weight)",
        )
    ]


def test_r48_explain_tenant_names_the_preemption_and_whose_it_is(run: Run, tmp_path: Path) -> None:
    project = _project(tmp_path, OWN)
    run_build(project)
    text = run("explain", "tenant", "team-a", "-c", project).stdout.splitlines()
    assert text[1] == (
        "  preemption (the tenant's own (R48)): reclaimWithinCohort LowerPriority, borrowWithinCohort "
        "LowerPriority up to priority 1000, withinClusterQueue Never"
    )
    assert (
        json.loads(run("explain", "tenant", "team-a", "-c", project, "-o", "json").stdout)["preemption"]
        == OWN
    )
    shared = run("explain", "tenant", "team-b", "-c", project, "-o", "json")
    assert "preemption" not in json.loads(shared.stdout)  # no queue of its own


def test_r48_diff_flags_a_preemption_change_as_a_risk(run: Run, tmp_path: Path) -> None:
    project = _project(tmp_path, None)
    run_build(project)
    before = tmp_path / "before"
    shutil.copytree(tmp_path / "out", before)
    run_build(_project(tmp_path, {"withinClusterQueue": "Never"}))
    result = run("diff", before, tmp_path / "out", "-c", project, "-o", "json")
    answer = json.loads(result.stdout)
    assert [r["id"] for r in answer["risks"]] == ["preemption"]
    flagged = [
        (c["kind"], c["name"], c["path"], c["old"], c["new"])
        for c in answer["changes"]
        if {"id": "preemption", "reason": "who may preempt whom changes"} in c["risks"]
    ]
    assert flagged == [
        (
            "ClusterQueue",
            "taugrid-team-a",
            ["spec", "preemption", "withinClusterQueue"],
            "LowerPriority",
            "Never",
        )
    ]


# --- simulate: the queue's own policy decides ---------------------------------------------------


def _lab(tmp_path: Path, preemption: dict[str, Any] | None) -> Path:
    shutil.copytree(PROJECT, tmp_path, dirs_exist_ok=True)
    doc = yaml.safe_load((tmp_path / "taugen.yaml").read_text())
    team_a = doc["clusters"][0]["tenants"][0]
    team_a["guaranteed"] = {"h200-141gb": 16}
    if preemption is not None:
        team_a["preemption"] = preemption
    (tmp_path / "taugen.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    build(BuildOptions(project_file=tmp_path / "taugen.yaml"))
    return tmp_path / "taugen.yaml"


@pytest.mark.parametrize(
    ("preemption", "pretrain", "fill"),
    [
        (None, "admitted", "preempted"),  # T2: reclaimWithinCohort Any reclaims from the borrower
        ({"reclaimWithinCohort": "Never"}, "pending", "admitted"),  # R48: it waits for the borrower
    ],
)
def test_r48_simulate_reclaims_only_where_the_tenants_policy_lets_it(
    run: Run, tmp_path: Path, preemption: dict[str, Any] | None, pretrain: str, fill: str
) -> None:
    project = _lab(tmp_path, preemption)
    result = run("simulate", CASES.parent / "simulate" / "cohort.yaml", "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    found = {r["name"]: r["status"] for r in json.loads(result.stdout)["runs"]}
    assert (found["pretrain"], found["fill"]) == (pretrain, fill)
