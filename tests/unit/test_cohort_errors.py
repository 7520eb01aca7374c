"""The errors of SPEC §10 (T2, T4): each at the project file's line and column, with a hint;
out/ and taugen.lock untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taugen.core.errors import Problem
from tests.support.helpers import snapshot
from tests.support.unit import problems_of, run_build
from tests.unit.test_cohorts import TEAM_C, cohort_project


def build_problems(root: Path, tenants: list[dict[str, Any]], **cluster: Any) -> list[Problem]:
    project = cohort_project(root, tenants, **cluster)
    before = snapshot(root)
    problems = problems_of(lambda: run_build(project))
    assert snapshot(root) == before  # nothing written: no out/, no taugen.lock
    return problems


def at(problem: Problem) -> tuple[str, int, int]:
    return problem.rule, problem.line, problem.col


def text_of(root: Path) -> list[str]:
    return (root / "taugen.yaml").read_text().splitlines()


def test_t4_guarantees_over_the_class_quota_name_each_part(tmp_path: Path) -> None:
    tenants: list[dict[str, Any]] = [
        {"namespace": "team-a", "guaranteed": {"h200-141gb": "75%"}},
        {"namespace": "team-b", "guaranteed": {"h200-141gb": 12}},
        TEAM_C,
    ]
    [problem] = build_problems(tmp_path, tenants)
    assert problem.message == (
        "cluster c1: guarantees of h200-141gb add up to 36 GPUs, over its quota of 32 "
        "(team-a 75% = 24, team-b 12)"
    )
    assert problem.hint == "lower the guarantees of h200-141gb to 32 GPUs in all, or add nodes of the class"
    line = text_of(tmp_path)[problem.line - 1]
    assert line[problem.col - 1 :].startswith("h200-141gb: 12") and problem.rule == "T4"


def test_t4_a_class_the_cluster_lacks_says_did_you_mean(tmp_path: Path) -> None:
    [problem] = build_problems(tmp_path, [{"namespace": "team-a", "guaranteed": {"h200-140gb": 8}}])
    assert (problem.rule, problem.message, problem.hint) == (
        "T4",
        "cluster c1 has no gpu-class h200-140gb",
        "did you mean h200-141gb?",
    )
    assert text_of(tmp_path)[problem.line - 1][problem.col - 1 :].startswith("h200-140gb: 8")


def test_t4_a_limit_for_a_class_the_cluster_lacks(tmp_path: Path) -> None:
    tenant = {"namespace": "team-a", "guaranteed": {"h200-141gb": 8}, "borrowingLimit": {"mi300x-192gb": 4}}
    [problem] = build_problems(tmp_path, [tenant])
    assert (problem.rule, problem.message, problem.hint) == (
        "T4",
        "cluster c1 has no gpu-class mi300x-192gb",
        "the cluster's gpu-classes: h100-80gb, h200-141gb",
    )


@pytest.mark.parametrize("share", ["half", "150%", "-5%", 1.5, True, -1, "50 %"])
def test_t4_a_share_that_is_not_a_percentage_or_a_count(tmp_path: Path, share: Any) -> None:
    [problem] = build_problems(tmp_path, [{"namespace": "team-a", "guaranteed": {"h200-141gb": share}}])
    assert problem.rule == "T4"
    assert problem.message.startswith("clusters.0.tenants.0.guaranteed.h200-141gb: ")
    assert problem.hint.startswith("write a GPU count such as 64, or a share of the class quota")
    assert "h200-141gb" in text_of(tmp_path)[problem.line - 1]


def test_t2_a_queue_name_over_63_characters(tmp_path: Path) -> None:
    namespace = "team-" + "x" * 50
    [problem] = build_problems(
        tmp_path, [{"namespace": namespace, "guaranteed": {"h200-141gb": 8}}], clusterQueue="taugrid-prod"
    )
    assert (problem.rule, problem.message) == (
        "T2",
        f"tenant {namespace}'s ClusterQueue taugrid-prod-{namespace} is 68 characters; Kueue limits it to 63",
    )
    assert namespace in text_of(tmp_path)[problem.line - 1]


def test_t2_a_lending_limit_above_the_guarantee(tmp_path: Path) -> None:
    tenant = {"namespace": "team-a", "guaranteed": {"h200-141gb": "25%"}, "lendingLimit": {"h200-141gb": 9}}
    [problem] = build_problems(tmp_path, [tenant])
    assert (problem.rule, problem.message, problem.hint) == (
        "T2",
        "tenant team-a may lend 9 h200-141gb GPUs, over its guarantee of 8",
        "set lendingLimit.h200-141gb to at most 8",
    )
    assert text_of(tmp_path)[problem.line - 1].strip().startswith("h200-141gb: 9")


def test_every_problem_of_the_cluster_is_reported_at_once(tmp_path: Path) -> None:
    tenants = [
        {"namespace": "team-a", "guaranteed": {"h200-140gb": 8}},
        {"namespace": "team-b", "guaranteed": {"h100-80gc": 8}},
    ]
    assert [p.message for p in build_problems(tmp_path, tenants)] == [
        "cluster c1 has no gpu-class h200-140gb",
        "cluster c1 has no gpu-class h100-80gc",
    ]
