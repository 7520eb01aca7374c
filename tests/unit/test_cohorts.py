"""Tenants with guaranteed GPU quota (SPEC §10, T1-T7), compared as whole objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.engines.changes.guarantees import guarantee_changes
from taugen.engines.changes.objects import Identity, PlacedObject
from taugen.lock.lockfile import merge_locks
from taugen.models.lock import ClusterLock, Lock
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import MANAGED, SKIP_DRY_RUN, line_of, objects, problems_of, run_build, write_project

KUEUE = "kueue.x-k8s.io/v1beta2"
SLOT = "tau.azure.com/torchrun-host-slot"
H100 = "Standard_ND96isr_H100_v5"
TEAM_A = {
    "namespace": "team-a",
    "guaranteed": {"h200-141gb": "50%", "h100-80gb": 2},
    "borrowingLimit": {"h200-141gb": 8},
    "lendingLimit": {"h200-141gb": 4},
    "weight": 3,
}
TEAM_B = {"namespace": "team-b", "localQueue": "bq", "guaranteed": {"h200-141gb": "25%"}}
TEAM_C = {"namespace": "team-c"}


def fleet() -> dict[str, Any]:
    """32 H200 on four Ready nodes, 8 H100 on one."""
    nodes = [gpu_node(f"h200-{i}") for i in range(4)] + [gpu_node("h100-0", vm_size=H100)]
    return inventory(nodes)


def cohort_project(root: Path, tenants: list[dict[str, Any]], **cluster: Any) -> Path:
    path = write_project(root, fleet(), **cluster)
    doc = yaml.safe_load(path.read_text())
    doc["clusters"][0]["tenants"] = tenants
    return write_yaml(path, doc)


def meta(name: str, wave: str, namespace: str | None = None, **annotations: str) -> dict[str, Any]:
    found: dict[str, Any] = {"name": name} | ({"namespace": namespace} if namespace else {})
    return found | {
        "labels": dict(MANAGED),
        "annotations": {
            "argocd.argoproj.io/sync-options": SKIP_DRY_RUN,
            "argocd.argoproj.io/sync-wave": wave,
            **annotations,
        },
    }


def resource(name: str, nominal: str, **limits: str) -> dict[str, Any]:
    return {"name": name, "nominalQuota": nominal, **limits}


def flavors(h100: tuple[Any, Any], h200: tuple[Any, Any]) -> list[dict[str, Any]]:
    """R25's flavors; a GPU flavor's gpu and slot entries as given (dicts with their limits)."""

    def entries(gpu: Any, slot: Any) -> list[dict[str, Any]]:
        gpu = gpu if isinstance(gpu, dict) else resource("nvidia.com/gpu", gpu)
        slot = slot if isinstance(slot, dict) else resource(SLOT, slot)
        return [resource("cpu", "100k"), resource("memory", "100Ti"), gpu, slot]

    return [
        {"name": "taugrid-default-cpu", "resources": entries("0", "0")},
        {"name": "taugrid-h100-80gb", "resources": entries(*h100)},
        {"name": "taugrid-h200-141gb", "resources": entries(*h200)},
    ]


def queue(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": KUEUE, "kind": "ClusterQueue", "metadata": meta(name, "0"), "spec": spec}


def selector(*namespaces: str) -> dict[str, Any]:
    key = "kubernetes.io/metadata.name"
    if not namespaces:
        return {"matchExpressions": [{"key": key, "operator": "DoesNotExist"}]}
    return {"matchExpressions": [{"key": key, "operator": "In", "values": list(namespaces)}]}


GROUP = ["cpu", "memory", "nvidia.com/gpu", SLOT]
TENANT_PREEMPTION = {
    "borrowWithinCohort": {"policy": "LowerPriority"},
    "reclaimWithinCohort": "Any",
    "withinClusterQueue": "LowerPriority",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("cohort")
    run_build(cohort_project(root, [TEAM_A, TEAM_B, TEAM_C]))
    return objects(root)


def test_t1_a_cohort_named_after_the_cluster_queue(built: dict[str, dict[str, Any]]) -> None:
    assert built["Cohort/taugrid"] == {
        "apiVersion": KUEUE,
        "kind": "Cohort",
        "metadata": meta("taugrid", "-1"),
    }


def test_t2_a_guaranteed_tenant_gets_its_own_queue(built: dict[str, dict[str, Any]]) -> None:
    """T2/T4: 50% of 32 H200 = 16, slots floor(4 * 16 / 32) = 2; limits scaled the same way:
    borrowing 8 -> 1 slot, lending 4 -> 0 slots; 2 H100 -> floor(1 * 2 / 8) = 0 slots."""
    h200 = (
        resource("nvidia.com/gpu", "16", borrowingLimit="8", lendingLimit="4"),
        resource(SLOT, "2", borrowingLimit="1", lendingLimit="0"),
    )
    assert built["ClusterQueue/taugrid-team-a"] == queue(
        "taugrid-team-a",
        {
            "cohortName": "taugrid",
            "fairSharing": {"weight": "3"},  # a quantity, as Kueue writes it back (issue 31)
            "namespaceSelector": selector("team-a"),
            "preemption": TENANT_PREEMPTION,
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("2", "0"), h200)}],
        },
    )
    assert built["ClusterQueue/taugrid-team-b"]["spec"] == {
        "cohortName": "taugrid",
        "fairSharing": {"weight": "1"},
        "namespaceSelector": selector("team-b"),
        "preemption": TENANT_PREEMPTION,
        "queueingStrategy": "BestEffortFIFO",
        "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("0", "0"), ("8", "1"))}],
    }


def test_t3_the_shared_queue_keeps_the_rest_and_admits_the_others(built: dict[str, dict[str, Any]]) -> None:
    """T3: H200 32 - 16 - 8 = 8 GPUs, 4 - 2 - 1 = 1 slot; H100 8 - 2 = 6, 1 - 0 = 1 slot."""
    assert built["ClusterQueue/taugrid"] == queue(
        "taugrid",
        {
            "cohortName": "taugrid",
            "namespaceSelector": selector("team-c"),
            "preemption": {"withinClusterQueue": "LowerPriority"},
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [{"coveredResources": GROUP, "flavors": flavors(("6", "1"), ("8", "1"))}],
        },
    )


def test_t3_with_every_tenant_guaranteed_the_shared_queue_admits_no_namespace(tmp_path: Path) -> None:
    run_build(cohort_project(tmp_path, [TEAM_A, TEAM_B]))
    assert objects(tmp_path)["ClusterQueue/taugrid"]["spec"]["namespaceSelector"] == selector()


def test_t5_local_queues_keep_their_names_and_point_at_their_queue(built: dict[str, dict[str, Any]]) -> None:
    force = {"kustomize.toolkit.fluxcd.io/force": "enabled"}  # spec.clusterQueue is immutable
    found = {k: v for k, v in built.items() if k.startswith("LocalQueue/")}
    assert found == {
        f"LocalQueue/{ns}/{name}": {
            "apiVersion": KUEUE,
            "kind": "LocalQueue",
            "metadata": meta(name, "1", ns, **force),
            "spec": {"clusterQueue": target},
        }
        for ns, name, target in (
            ("team-a", "taugrid", "taugrid-team-a"),
            ("team-b", "bq", "taugrid-team-b"),
            ("team-c", "taugrid", "taugrid"),
        )
    }


def test_t6_the_lock_records_each_resolved_guarantee(tmp_path: Path) -> None:
    run_build(cohort_project(tmp_path, [TEAM_A, TEAM_B, TEAM_C]))
    entry = yaml.safe_load((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    assert entry["guaranteed"] == {"team-a": {"h100-80gb": 2, "h200-141gb": 16}, "team-b": {"h200-141gb": 8}}
    assert entry["gpuQuota"] == {"h100-80gb": 8, "h200-141gb": 32}


def test_t6_a_lock_without_guarantees_has_no_guaranteed_key(tmp_path: Path) -> None:
    run_build(cohort_project(tmp_path, [TEAM_C]))
    assert "guaranteed" not in yaml.safe_load((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]


def test_t6_a_conflicted_lock_keeps_the_larger_guarantee_of_each_side() -> None:
    """R35's max rule: a decrease on either side is still reported by diff against the merge."""
    base = {"observedAt": "2026-11-28T12:00:00Z", "inputsDigest": "sha256:x", "gpuQuota": {"h200-141gb": 32}}
    ours = ClusterLock.model_validate({**base, "guaranteed": {"team-a": {"h200-141gb": 16}}})
    theirs = ClusterLock.model_validate(
        {**base, "guaranteed": {"team-a": {"h200-141gb": 8, "h100-80gb": 2}, "team-b": {"h200-141gb": 4}}}
    )
    merged = merge_locks(Lock(clusters={"c1": ours}), Lock(clusters={"c1": theirs})).clusters["c1"]
    assert merged.guaranteed == {
        "team-a": {"h100-80gb": 2, "h200-141gb": 16},
        "team-b": {"h200-141gb": 4},
    }


def test_t2_weight_and_limits_need_a_guarantee(tmp_path: Path) -> None:
    project = cohort_project(tmp_path, [TEAM_A, {"namespace": "team-c", "weight": 2}])
    [problem] = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.line, problem.col) == ("T2", line_of(project, "weight: 2"), 5)
    assert "team-c sets weight without guaranteed" in problem.message


def test_t7_gpu_quota_and_guaranteed_together_are_an_error(tmp_path: Path) -> None:
    tenant = {"namespace": "team-a", "gpuQuota": 8, "guaranteed": {"h200-141gb": 8}}
    project = cohort_project(tmp_path, [tenant], scheduler="kai")
    [problem] = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.message) == (
        "T7",
        "clusters.0.tenants.0: tenant team-a sets both gpuQuota and guaranteed",
    )


def test_t7_kai_leaf_queue_sums_the_guarantees(tmp_path: Path) -> None:
    """T7: quota 16 + 2 = 18; team-a borrows at most 8 H200 but H100 without limit: limit -1;
    team-b: a borrowingLimit for every class, so limit = 8 + 4 + 0."""
    team_a = {k: v for k, v in TEAM_A.items() if k != "lendingLimit"}
    team_b = {
        "namespace": "team-b",
        "guaranteed": {"h200-141gb": "25%"},
        "borrowingLimit": {"h200-141gb": 4, "h100-80gb": 0},
    }
    run_build(cohort_project(tmp_path, [team_a, team_b, TEAM_C], scheduler="kai"))
    found = objects(tmp_path)

    def gpu(name: str) -> Any:
        return found[f"Queue/{name}"]["spec"]["resources"]["gpu"]

    assert gpu("taugrid-team-a") == {"quota": 18, "overQuotaWeight": 3, "limit": -1}
    assert gpu("taugrid-team-b") == {"quota": 8, "overQuotaWeight": 1, "limit": 12}
    assert gpu("taugrid-team-c") == {"quota": 0, "overQuotaWeight": 1, "limit": -1}
    assert not any(k.startswith(("ClusterQueue/", "Cohort/")) for k in found)  # K3


def test_t7_kai_refuses_a_lending_limit(tmp_path: Path) -> None:
    project = cohort_project(tmp_path, [TEAM_A], scheduler="kai")
    [problem] = problems_of(lambda: run_build(project))
    assert problem.rule == "T7" and "lendingLimit" in problem.message


def _side(root: Path) -> dict[Identity, PlacedObject]:
    queues = [o for o in objects(root).values() if o["kind"] == "ClusterQueue"]
    return {
        Identity("c1", o["kind"], "", o["metadata"]["name"], KUEUE): PlacedObject("q.yaml", o) for o in queues
    }


def test_t6_diff_names_each_guarantee_change_and_a_decrease_is_a_risk(tmp_path: Path) -> None:
    run_build(cohort_project(tmp_path / "base", [TEAM_A, TEAM_B, TEAM_C]))
    smaller = {**TEAM_A, "guaranteed": {"h200-141gb": "25%"}, "lendingLimit": {}}
    run_build(
        cohort_project(tmp_path / "head", [smaller, {**TEAM_B, "guaranteed": {"h200-141gb": 12}}, TEAM_C])
    )
    found = [
        (i.name, h, [r.id for r in risks])
        for i, h, risks in guarantee_changes(_side(tmp_path / "base"), _side(tmp_path / "head"))
    ]
    assert found == [
        ("taugrid-team-a", "team-a guaranteed h100-80gb 2 → 0", ["capacity"]),
        ("taugrid-team-a", "team-a guaranteed h200-141gb 16 → 8", ["capacity"]),
        ("taugrid-team-b", "team-b guaranteed h200-141gb 8 → 12", []),
    ]
