"""Tenant groups, nested cohorts (SPEC §15, R51): each group a Cohort under the cluster's (T1) or
its parent group's, shares resolved as T4 at each level; compared as whole objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.unit import objects, run_build
from tests.unit.test_cohorts import (
    GROUP,
    KUEUE,
    SLOT,
    TEAM_C,
    TENANT_PREEMPTION,
    cohort_project,
    flavors,
    meta,
    queue,
    resource,
    selector,
)

TENANTS: list[dict[str, Any]] = [
    {"namespace": "team-a", "guaranteed": {"h200-141gb": "50%", "h100-80gb": 2}},
    {"namespace": "team-b", "guaranteed": {"h200-141gb": 8}},
    TEAM_C,
]
GROUPS: list[dict[str, Any]] = [
    {
        "name": "org",
        "guaranteed": {"h200-141gb": 24},
        "lendingLimit": {"h200-141gb": 8},
        "tenants": ["team-b"],
    },
    {
        "name": "llm",
        "parent": "org",
        "guaranteed": {"h200-141gb": "50%"},
        "borrowingLimit": {"h200-141gb": 4},
        "tenants": ["team-a"],
    },
]
GPU_SLOT = ["nvidia.com/gpu", SLOT]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("groups")
    run_build(cohort_project(root, TENANTS, groups=GROUPS))
    return objects(root)


def cohort(name: str, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    found = {"apiVersion": KUEUE, "kind": "Cohort", "metadata": meta(name, "-1")}
    return found | ({"spec": spec} if spec is not None else {})


def test_r51_each_group_is_a_cohort_under_its_parent_with_its_own_quota(
    built: dict[str, dict[str, Any]],
) -> None:
    """org is guaranteed 24 of 32 H200; its members: team-b 8 and llm 50% of org's 24 = 12, so
    org's own nominal quota is 24 - 20 = 4. llm's member team-a has 50% of llm's 12 = 6: llm
    holds 6 of its own. Slots as T2: floor(4 ready slots x GPUs / 32); limits scaled the same way
    (org lends 8 GPUs = 1 slot; llm borrows 4 GPUs = 0 slots)."""
    cohorts = {k: v for k, v in built.items() if k.startswith("Cohort/")}
    assert cohorts == {
        "Cohort/taugrid": cohort("taugrid"),
        "Cohort/taugrid-org": cohort(
            "taugrid-org",
            {
                "parentName": "taugrid",
                "resourceGroups": [
                    {
                        "coveredResources": GPU_SLOT,
                        "flavors": [
                            {
                                "name": "taugrid-h200-141gb",
                                "resources": [
                                    resource("nvidia.com/gpu", "4", lendingLimit="8"),
                                    resource(SLOT, "0", lendingLimit="1"),
                                ],
                            }
                        ],
                    }
                ],
            },
        ),
        "Cohort/taugrid-llm": cohort(
            "taugrid-llm",
            {
                "parentName": "taugrid-org",
                "resourceGroups": [
                    {
                        "coveredResources": GPU_SLOT,
                        "flavors": [
                            {
                                "name": "taugrid-h200-141gb",
                                "resources": [
                                    resource("nvidia.com/gpu", "6", borrowingLimit="4"),
                                    resource(SLOT, "0", borrowingLimit="0"),
                                ],
                            }
                        ],
                    }
                ],
            },
        ),
    }


def test_r51_a_grouped_tenants_queue_joins_its_groups_cohort(built: dict[str, dict[str, Any]]) -> None:
    """team-a's h100 guarantee: llm and org guarantee no H100, so it is resolved at the
    cluster's level (2 of 8, as T4); its h200 50% is of llm's 12."""
    base = {
        "fairSharing": {"weight": "1"},
        "preemption": TENANT_PREEMPTION,
        "queueingStrategy": "BestEffortFIFO",
    }
    assert built["ClusterQueue/taugrid-team-a"] == queue(
        "taugrid-team-a",
        base
        | {
            "cohortName": "taugrid-llm",
            "namespaceSelector": selector("team-a"),
            "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("2", "0"), ("6", "0"))}],
        },
    )
    assert built["ClusterQueue/taugrid-team-b"] == queue(
        "taugrid-team-b",
        base
        | {
            "cohortName": "taugrid-org",
            "namespaceSelector": selector("team-b"),
            "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("0", "0"), ("8", "1"))}],
        },
    )


def test_r51_the_shared_queue_keeps_what_no_tenant_nor_group_holds(built: dict[str, dict[str, Any]]) -> None:
    """T3 with groups: H200 32 - tenants (6 + 8) - groups' own (4 + 6) = 8, slots 4 - 1 = 3;
    H100 8 - 2 = 6, slot 1 - 0 = 1."""
    assert built["ClusterQueue/taugrid"] == queue(
        "taugrid",
        {
            "cohortName": "taugrid",
            "namespaceSelector": selector("team-c"),
            "preemption": {"withinClusterQueue": "LowerPriority"},
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("6", "1"), ("8", "3"))}],
        },
    )


def test_r51_a_group_with_only_limits_has_no_quota_of_its_own(tmp_path: Path) -> None:
    """A group guaranteeing nothing is transparent to T4: its tenants' shares are of the class
    quota; its Cohort holds nominal 0 and carries the limit toward the cluster's cohort."""
    groups = [{"name": "org", "borrowingLimit": {"h200-141gb": 16}, "tenants": ["team-a", "team-b"]}]
    run_build(cohort_project(tmp_path, TENANTS, groups=groups))
    found = objects(tmp_path)
    assert found["Cohort/taugrid-org"]["spec"] == {
        "parentName": "taugrid",
        "resourceGroups": [
            {
                "coveredResources": GPU_SLOT,
                "flavors": [
                    {
                        "name": "taugrid-h200-141gb",
                        "resources": [
                            resource("nvidia.com/gpu", "0", borrowingLimit="16"),
                            resource(SLOT, "0", borrowingLimit="2"),
                        ],
                    }
                ],
            }
        ],
    }
    h200 = found["ClusterQueue/taugrid-team-a"]["spec"]["resourceGroups"][0]["flavors"][2]
    assert h200["resources"][2] == resource("nvidia.com/gpu", "16")  # 50% of the class's 32


def test_r51_no_groups_is_todays_tree_byte_for_byte(tmp_path: Path) -> None:
    """`groups: []` and no `groups:` write the same files, byte for byte."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    run_build(cohort_project(tmp_path / "a", TENANTS))
    run_build(cohort_project(tmp_path / "b", TENANTS, groups=[]))
    first, second = tmp_path / "a" / "out", tmp_path / "b" / "out"
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)


@pytest.mark.parametrize(("kueue", "warned"), [(None, True), ({"fairSharing": {"enable": True}}, False)])
def test_r51_a_groups_weight_is_its_cohorts_fair_sharing_weight(
    tmp_path: Path, kueue: dict[str, Any] | None, warned: bool
) -> None:
    """A group's `weight` is its Cohort's spec.fairSharing.weight (R49, R51), written as Kueue
    writes a quantity back; a group without one gets none (Kueue's 1, and today's Cohort). As a
    tenant's weight, it does nothing without fair sharing: a warning at the group's weight."""
    groups = [GROUPS[0] | {"weight": 3}, GROUPS[1]]
    project = cohort_project(tmp_path, TENANTS, groups=groups, **({} if kueue is None else {"kueue": kueue}))
    result = run_build(project)
    found = objects(tmp_path)
    assert found["Cohort/taugrid-org"]["spec"]["fairSharing"] == {"weight": "3"}
    assert "fairSharing" not in found["Cohort/taugrid-llm"]["spec"]
    warnings = [(p.rule, p.message, p.line) for p in result.warnings if p.rule == "R49"]
    message = (
        "group org has weight 3, but cluster c1's Kueue is recorded without fair sharing "
        "(kueue.fairSharing, default off): its Cohort's fairSharing.weight does nothing"
    )
    lines = project.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip().startswith("weight: 3"))
    assert warnings == ([("R49", message, line)] if warned else [])
