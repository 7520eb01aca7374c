"""R47: fallback GPU classes. A profile's `gpu_class: [h200-141gb, h100-80gb]` is an order of
preference: the ClusterQueue holds the GPU flavors in an order consistent with every profile's
list (R25's order by name where no list says otherwise), two profiles that contradict are
refused at the second one's line, the catalog says which listed classes are ready, and a
guaranteed tenant may set Kueue v0.19.2's flavorFungibility (apis/kueue/v1beta2
TenantFungibility; clusterqueue_webhook.go validateFlavorFungibility: `preference` needs both
policies TryNextFlavor)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import (
    line_of,
    objects,
    problems_of,
    profile,
    run_build,
    write_profiles,
    write_project,
)

H100 = "Standard_ND96isr_H100_v5"
A100 = "Standard_ND96asr_v4"


def _project(tmp_path: Path, *profiles: dict[str, Any], tenant: dict[str, Any] | None = None) -> Path:
    nodes = [gpu_node("h200-0"), gpu_node("h100-0", H100), gpu_node("a100-0", A100)]
    names = write_profiles(tmp_path, *profiles) if profiles else None
    project = write_project(tmp_path, inventory(nodes), tenants=("team-a", "team-b"), profiles=names)
    if tenant is not None:
        doc = yaml.safe_load(project.read_text())
        doc["clusters"][0]["tenants"][0].update(tenant)
        project.write_text(yaml.safe_dump(doc, sort_keys=False))
    return project


def _queue_flavors(tmp_path: Path, name: str = "taugrid") -> list[str]:
    spec = objects(tmp_path)[f"ClusterQueue/{name}"]["spec"]
    return [f["name"] for f in spec["resourceGroups"][0]["flavors"]]


def test_r25_without_a_list_the_flavors_keep_their_order_by_name(tmp_path: Path) -> None:
    run_build(_project(tmp_path, profile("one", "h200-141gb")))
    assert _queue_flavors(tmp_path) == [
        "taugrid-default-cpu",
        "taugrid-a100-40gb",
        "taugrid-h100-80gb",
        "taugrid-h200-141gb",
    ]


def test_r47_a_profiles_list_orders_the_queues_flavors(tmp_path: Path) -> None:
    run_build(_project(tmp_path, profile("fallback", ["h200-141gb", "h100-80gb"])))
    assert _queue_flavors(tmp_path) == [
        "taugrid-default-cpu",
        "taugrid-a100-40gb",  # no list orders it: by name, before the classes that follow h200
        "taugrid-h200-141gb",
        "taugrid-h100-80gb",
    ]


def test_r47_lists_combine_transitively_in_every_queue_of_the_cohort(tmp_path: Path) -> None:
    project = _project(
        tmp_path,
        profile("first", ["h200-141gb", "h100-80gb"]),
        profile("second", ["h100-80gb", "a100-40gb"]),
        tenant={"guaranteed": {"h200-141gb": 4}},
    )
    run_build(project)
    order = ["taugrid-default-cpu", "taugrid-h200-141gb", "taugrid-h100-80gb", "taugrid-a100-40gb"]
    assert _queue_flavors(tmp_path) == order
    assert _queue_flavors(tmp_path, "taugrid-team-a") == order


def test_r47_two_profiles_that_order_two_classes_both_ways_are_refused_at_the_second(
    tmp_path: Path,
) -> None:
    project = _project(
        tmp_path,
        profile("first", ["h200-141gb", "h100-80gb"]),
        profile("second", ["h100-80gb", "h200-141gb"]),
    )
    problems = problems_of(lambda: run_build(project))
    second = tmp_path / "profiles" / "second.yaml"
    assert [(p.rule, p.message, p.hint, p.path, p.line) for p in problems] == [
        (
            "R47",
            "profile second lists h100-80gb before h200-141gb, but profile first puts "
            "h200-141gb before h100-80gb: the cluster's queues hold the flavors in one order, and Kueue "
            "tries them in that order",
            "list h100-80gb and h200-141gb in the same order",
            second,
            line_of(second, "gpu_class"),
        )
    ]
    assert not (tmp_path / "out").exists()


def test_r47_a_contradiction_through_a_third_class_names_every_profile_of_it(tmp_path: Path) -> None:
    project = _project(
        tmp_path,
        profile("a", ["h200-141gb", "h100-80gb"]),
        profile("b", ["h100-80gb", "a100-40gb"]),
        profile("c", ["a100-40gb", "h200-141gb"]),
    )
    problems = problems_of(lambda: run_build(project))
    assert [p.message.split(": the")[0] for p in problems] == [
        "profile c lists a100-40gb before h200-141gb, but profile a, b puts h200-141gb before a100-40gb"
    ]


def test_r47_the_catalog_says_which_listed_classes_are_ready(tmp_path: Path) -> None:
    run_build(
        _project(
            tmp_path,
            profile("fallback", ["b200-180gb", "h100-80gb", "h200-141gb"]),
            profile("none", ["b200-180gb", "gb200-186gb"]),
        )
    )
    data = objects(tmp_path)["ConfigMap/kueue-system/taugen-profile-catalog"]["data"]["profiles.yaml"]
    entries = {e["name"]: e for e in yaml.safe_load(data)["profiles"]}
    assert entries["fallback"] == {
        "name": "fallback",
        "policy": {
            "priority_tier": "default",
            "gpu_class": ["b200-180gb", "h100-80gb", "h200-141gb"],
            "topology": "unconstrained",
        },
        "priorityClass": "taugrid-default",
        "topologyLevel": None,
        "ready": True,
        "readyClasses": ["h100-80gb", "h200-141gb"],
    }
    assert entries["none"]["ready"] is False
    assert entries["none"]["reason"] == (
        "no listed gpu-class is ready: gpu-class b200-180gb has no nodes in cluster c1; "
        "gpu-class gb200-186gb has no nodes in cluster c1"
    )
    assert "readyClasses" not in entries["none"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            ["h200-141gb", "h200-141gb"],
            "gpu_class lists h200-141gb twice: the list is an order of preference",
        ),
        ([], "gpu_class lists no class"),
    ],
)
def test_r47_a_list_names_each_class_once(tmp_path: Path, value: list[str], message: str) -> None:
    problems = problems_of(lambda: run_build(_project(tmp_path, profile("bad", value))))
    assert [p.message for p in problems] == [f"policy.gpu_class: {message}"]


def test_r47_a_list_of_one_class_is_that_class(tmp_path: Path) -> None:
    from taugen.models.profile import Policy

    assert Policy.model_validate({"gpu_class": ["h200-141gb"]}) == Policy.model_validate(
        {"gpu_class": "h200-141gb"}
    )


def test_r3_a_platform_identifier_in_a_list_is_refused_at_its_item(tmp_path: Path) -> None:
    project = _project(tmp_path, profile("bad", ["h200-141gb", "nd-h100-v5"]))
    problems = problems_of(lambda: run_build(project))
    second = tmp_path / "profiles" / "bad.yaml"
    assert [(p.rule, p.path, p.line) for p in problems] == [("R3", second, line_of(second, "nd-h100-v5"))]


# --- flavorFungibility -------------------------------------------------------------------------


def test_r47_a_guaranteed_tenant_sets_its_queues_flavor_fungibility(tmp_path: Path) -> None:
    own = {"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "MayStopSearch"}
    run_build(_project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}, "flavorFungibility": own}))
    found = objects(tmp_path)
    assert found["ClusterQueue/taugrid-team-a"]["spec"]["flavorFungibility"] == own
    assert "flavorFungibility" not in found["ClusterQueue/taugrid"]["spec"]  # absent: Kueue's defaults


def test_r47_without_flavor_fungibility_the_tenant_queue_is_todays(tmp_path: Path) -> None:
    run_build(_project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}}))
    assert "flavorFungibility" not in objects(tmp_path)["ClusterQueue/taugrid-team-a"]["spec"]


def test_r47_preference_without_both_try_next_flavor_is_refused_where_kueue_refuses_it(
    tmp_path: Path,
) -> None:
    """whenCanBorrow absent is Kueue's default MayStopSearch (the CRD defaults it before its CEL rule)."""
    bad = {"whenCanPreempt": "TryNextFlavor", "preference": "PreemptionOverBorrowing"}
    project = _project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}, "flavorFungibility": bad})
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.message, p.line) for p in problems] == [
        (
            "R47",
            "clusters.0.tenants.0.flavorFungibility: preference PreemptionOverBorrowing with "
            "whenCanBorrow MayStopSearch and whenCanPreempt TryNextFlavor: Kueue requires both to be "
            "TryNextFlavor",
            line_of(project, "whenCanPreempt"),  # the mapping's first line
        )
    ]


def test_r47_preference_with_both_try_next_flavor_is_written() -> None:
    from taugen.models.fungibility import TenantFungibility

    both = {
        "whenCanBorrow": "TryNextFlavor",
        "whenCanPreempt": "TryNextFlavor",
        "preference": "PreemptionOverBorrowing",
    }
    assert TenantFungibility.model_validate(both).as_spec() == both
    assert TenantFungibility.model_validate(
        {"preference": "BorrowingOverPreemption", "whenCanBorrow": "TryNextFlavor"}
    ).as_spec() == {
        "whenCanBorrow": "TryNextFlavor",
        "preference": "BorrowingOverPreemption",
    }  # whenCanPreempt's default is TryNextFlavor


def test_r47_flavor_fungibility_without_a_guarantee_has_no_queue_to_go_on(tmp_path: Path) -> None:
    project = _project(tmp_path, tenant={"flavorFungibility": {"whenCanBorrow": "TryNextFlavor"}})
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.message) for p in problems] == [
        (
            "T2",
            "tenant team-a sets flavorFungibility without guaranteed: it shares the ClusterQueue taugrid "
            "with every tenant that has no guarantee",
        )
    ]


def test_r47_a_kai_tenant_cannot_set_flavor_fungibility(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]), scheduler="kai")
    doc = yaml.safe_load(project.read_text())
    doc["clusters"][0]["tenants"][0]["flavorFungibility"] = {"whenCanBorrow": "TryNextFlavor"}
    project.write_text(yaml.safe_dump(doc, sort_keys=False))
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.message, p.hint) for p in problems] == [
        (
            "R47",
            "tenant team-a sets flavorFungibility, a setting of Kueue's ClusterQueues",
            "remove flavorFungibility: KAI queues count GPUs without classes",
        )
    ]


def test_r47_explain_tenant_names_its_flavor_fungibility(tmp_path: Path, run: Run) -> None:
    own = {"whenCanBorrow": "TryNextFlavor"}
    project = _project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}, "flavorFungibility": own})
    run_build(project)
    text = run("explain", "tenant", "team-a", "-c", project).stdout.splitlines()
    assert text[2] == (
        "  flavorFungibility (the tenant's own (R47)): whenCanBorrow TryNextFlavor, "
        "whenCanPreempt TryNextFlavor (Kueue default)"
    )
    answer = json.loads(run("explain", "tenant", "team-a", "-c", project, "-o", "json").stdout)
    assert answer["flavorFungibility"] == own
    shared = json.loads(run("explain", "tenant", "team-b", "-c", project, "-o", "json").stdout)
    assert "flavorFungibility" not in shared


def test_r47_diff_flags_a_flavor_fungibility_change_as_a_preemption_risk(tmp_path: Path, run: Run) -> None:
    project = _project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}})
    run_build(project)
    before = tmp_path / "before"
    shutil.copytree(tmp_path / "out", before)
    own = {"whenCanPreempt": "MayStopSearch"}
    run_build(_project(tmp_path, tenant={"guaranteed": {"h200-141gb": 4}, "flavorFungibility": own}))
    answer = json.loads(run("diff", before, tmp_path / "out", "-c", project, "-o", "json").stdout)
    assert [r["id"] for r in answer["risks"]] == ["preemption"]
    reason = "whether a run preempts or borrows, or tries its next class first, changes"
    flagged = [
        (c["name"], c["path"], c["old"], c["new"])
        for c in answer["changes"]
        if {"id": "preemption", "reason": reason} in c["risks"]
    ]
    assert flagged == [
        ("taugrid-team-a", ["spec", "flavorFungibility"], None, {"whenCanPreempt": "MayStopSearch"})
    ]
