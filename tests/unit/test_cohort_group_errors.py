"""The errors of R51 (tenant groups): each at the project file's line and column, with a hint;
out/ and taugen.lock untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taugen.core.errors import Problem
from tests.support.helpers import snapshot
from tests.support.unit import problems_of, run_build
from tests.unit.test_cohort_groups import TENANTS
from tests.unit.test_cohorts import cohort_project


def group_problems(
    root: Path, groups: list[dict[str, Any]], tenants: list[dict[str, Any]] = TENANTS
) -> list[Problem]:
    project = cohort_project(root, tenants, groups=groups)
    before = snapshot(root)
    problems = problems_of(lambda: run_build(project))
    assert snapshot(root) == before  # nothing written
    return problems


def text_at(root: Path, problem: Problem) -> str:
    """The project file's text from the problem's line and column on."""
    return (root / "taugen.yaml").read_text().splitlines()[problem.line - 1][problem.col - 1 :]


def shown(root: Path, problems: list[Problem]) -> list[tuple[str, str, str, str]]:
    return [(p.rule, p.message, p.hint, text_at(root, p)) for p in problems]


def test_r51_an_unknown_tenant_or_parent_says_did_you_mean(tmp_path: Path) -> None:
    groups: list[dict[str, Any]] = [
        {"name": "org", "tenants": ["team-b"]},
        {"name": "llm", "parent": "orgg", "tenants": ["team-aa"]},
    ]
    assert shown(tmp_path, group_problems(tmp_path, groups)) == [
        ("R51", "group llm's parent orgg is not a group of the cluster", "did you mean org?", "orgg"),
        ("R51", "group llm lists team-aa, not a tenant of cluster c1", "did you mean team-a?", "team-aa"),
    ]


def test_r51_a_tenant_in_two_groups_or_without_a_guarantee(tmp_path: Path) -> None:
    groups: list[dict[str, Any]] = [
        {"name": "org", "tenants": ["team-a", "team-c"]},
        {"name": "llm", "tenants": ["team-b", "team-a"]},
    ]
    assert shown(tmp_path, group_problems(tmp_path, groups)) == [
        (
            "R51",
            "tenant team-c in group org has no guarantee: it shares the ClusterQueue taugrid, which "
            "stays in the cluster's cohort",
            "give tenant team-c guaranteed (its own ClusterQueue, T2), or remove it from the group",
            "team-c",
        ),
        (
            "R51",
            "tenant team-a is in group org already: its ClusterQueue joins one Cohort",
            "remove team-a from one of the groups",
            "team-a",
        ),
    ]


def test_r51_a_cycle_of_parents_at_the_parent_that_closes_it(tmp_path: Path) -> None:
    """Kueue accepts a cycle and then admits nothing in the tree (cohort_types.go, parentName)."""
    groups: list[dict[str, Any]] = [
        {"name": "org", "parent": "llm", "tenants": ["team-b"]},
        {"name": "llm", "parent": "org", "tenants": ["team-a"]},
        {"name": "solo", "parent": "solo"},
    ]
    assert shown(tmp_path, group_problems(tmp_path, groups)) == [
        (
            "R51",
            "groups form a cycle of parents (org → llm → org): "
            "Kueue admits nothing in a cohort tree with a cycle",
            "remove group llm's parent, or name a group outside the cycle",
            "org",
        ),
        (
            "R51",
            "group solo holds no tenant, neither its own nor through a child group",
            "list guaranteed tenants under tenants:, or name the group as another group's parent",
            "solo",
        ),
        (
            "R51",
            "groups form a cycle of parents (solo → solo): "
            "Kueue admits nothing in a cohort tree with a cycle",
            "remove group solo's parent, or name a group outside the cycle",
            "solo",
        ),
    ]


def test_r51_names_twice_a_tenants_name_and_an_empty_group(tmp_path: Path) -> None:
    groups: list[dict[str, Any]] = [
        {"name": "org", "tenants": ["team-a"]},
        {"name": "org", "tenants": ["team-b"]},
        {"name": "team-c", "parent": "org"},
        {"name": "idle", "guaranteed": {"h200-141gb": 4}},
    ]
    problems = group_problems(tmp_path, groups)
    assert shown(tmp_path, problems) == [
        ("R51", "group org is declared twice", "rename one", "org"),
        (
            "R51",
            "group team-c has the name of tenant team-c",
            "give the group a name no tenant of the cluster has",
            "team-c",
        ),
        (
            "R51",
            "group team-c holds no tenant, neither its own nor through a child group",
            "list guaranteed tenants under tenants:, or name the group as another group's parent",
            "team-c",
        ),
        (
            "R51",
            "group idle holds no tenant, neither its own nor through a child group",
            "list guaranteed tenants under tenants:, or name the group as another group's parent",
            "idle",
        ),
    ]


def test_r51_members_over_the_groups_guarantee_name_each_part(tmp_path: Path) -> None:
    groups = [{"name": "org", "guaranteed": {"h200-141gb": "25%"}, "tenants": ["team-a", "team-b"]}]
    tenants = [
        {"namespace": "team-a", "guaranteed": {"h200-141gb": "50%"}},
        {"namespace": "team-b", "guaranteed": {"h200-141gb": 8}},
    ]
    assert shown(tmp_path, group_problems(tmp_path, groups, tenants)) == [
        (
            "R51",
            "group org is guaranteed 25% = 8 h200-141gb GPUs, but its members are guaranteed 12 "
            "(team-a 50% = 4, team-b 8)",
            "raise group org's guarantee of h200-141gb to 12, or lower its members'",
            "h200-141gb: 25%",
        )
    ]


def test_r51_t4_at_the_clusters_level_counts_a_group_as_one_part(tmp_path: Path) -> None:
    groups = [{"name": "org", "guaranteed": {"h200-141gb": 30}, "tenants": ["team-b"]}]
    [problem] = group_problems(tmp_path, groups)
    assert shown(tmp_path, [problem]) == [
        (
            "T4",
            "cluster c1: guarantees of h200-141gb add up to 46 GPUs, over its quota of 32 "
            "(team-a 50% = 16, group org 30)",
            "lower the guarantees of h200-141gb to 32 GPUs in all, or add nodes of the class",
            "h200-141gb: 30",
        )
    ]


def test_r51_a_group_lends_at_most_its_guarantee_of_classes_the_cluster_has(tmp_path: Path) -> None:
    groups: list[dict[str, Any]] = [
        {
            "name": "org",
            "guaranteed": {"h200-141gb": 8},
            "lendingLimit": {"h200-141gb": 9, "h100-80gb": 1},
            "borrowingLimit": {"h200-140gb": 1},
            "tenants": ["team-b"],
        }
    ]
    first = group_problems(tmp_path, groups)
    assert shown(tmp_path, first) == [
        (
            "R51",
            "group org: cluster c1 has no gpu-class h200-140gb",
            "did you mean h200-141gb?",
            "h200-140gb: 1",
        )
    ]
    groups[0]["borrowingLimit"] = {}
    assert shown(tmp_path, group_problems(tmp_path, groups)) == [
        (
            "R51",
            "group org may lend 9 h200-141gb GPUs, over its guarantee of 8",
            "set lendingLimit.h200-141gb to at most 8",
            "9",
        ),
        (
            "R51",
            "group org may lend 1 h100-80gb GPUs, over its guarantee of 0",
            "set lendingLimit.h100-80gb to at most 0",
            "1",
        ),
    ]
