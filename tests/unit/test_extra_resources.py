"""R44: device resources a cluster lists in `extraResources` (EFA, RDMA, hugepages) are covered by
the ClusterQueue in the GPU flavors' group, with the Ready nodes' summed allocatable as quota,
kept by the high-water mark (R26) and split among guaranteed tenants as T4 splits GPUs.

tests/data/platforms/eks-p5.yaml: five p5.48xlarge nodes (8 H100, 32 EFA, 21Gi of 2Mi
hugepages each), the fifth NotReady, and one CPU node."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.compile.shares import resolve_shares
from taugen.lock.lockfile import merge_locks
from taugen.models.lock import Lock
from tests.support.fleet import INVENTORIES, WORKER, fleet_project
from tests.support.unit import objects, problems_of, run_build, write_project
from tests.unit.test_platforms import NEW_HISTORY, PRESENT, messages, nodelist, rules

EFA, HUGE = "vpc.amazonaws.com/efa", "hugepages-2Mi"
SLOT = "tau.azure.com/torchrun-host-slot"
P5_RULES = rules(({"vmSizes": ["p5.48xlarge"]}, "h100-80gb"))
FIXED = ["cpu", "memory", "nvidia.com/gpu", SLOT]


def _project(tmp_path: Path, inv: dict[str, Any] | None = None, **cluster: Any) -> Path:
    cluster.setdefault("extraResources", [EFA, HUGE])
    return write_project(
        tmp_path,
        inv or nodelist("eks-p5.yaml"),
        P5_RULES,
        tenants=cluster.pop("tenants", ("team-a",)),
        topologyLabels="eks",
        gpuNodeTaints=[PRESENT],
        **cluster,
    )


def _flavor(name: str, quota: list[str]) -> dict[str, Any]:
    resources = [*FIXED, HUGE, EFA]
    return {
        "name": name,
        "resources": [{"name": r, "nominalQuota": q} for r, q in zip(resources, quota, strict=True)],
    }


def _queue(tmp_path: Path, name: str = "taugrid") -> dict[str, Any]:
    spec: dict[str, Any] = objects(tmp_path)[f"ClusterQueue/{name}"]["spec"]
    return spec


def _lock(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]
    return data


def test_r44_the_queue_covers_the_listed_resources_with_the_ready_nodes_allocatable(tmp_path: Path) -> None:
    result = run_build(_project(tmp_path))
    assert messages(result) == [NEW_HISTORY]
    assert _queue(tmp_path) == {
        "namespaceSelector": {
            "matchExpressions": [
                {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-a"]}
            ]
        },
        "preemption": {"withinClusterQueue": "LowerPriority"},
        "queueingStrategy": "BestEffortFIFO",
        "resourceGroups": [
            {
                "coveredResources": [*FIXED, HUGE, EFA],  # R25's four, then the extra ones sorted
                "flavors": [
                    _flavor("taugrid-default-cpu", ["100k", "100Ti", "0", "0", "0", "0"]),
                    # 5 nodes' GPUs (R26), 4 Ready slots (R27); 4 Ready x 32 EFA, 4 x 21Gi hugepages
                    _flavor("taugrid-h100-80gb", ["100k", "100Ti", "40", "4", str(4 * 21 * 2**30), "128"]),
                ],
            }
        ],
    }
    assert _lock(tmp_path)["extraQuota"] == {"h100-80gb": {HUGE: 4 * 21 * 2**30, EFA: 128}}


def test_r44_a_prefix_matches_every_resource_under_it(tmp_path: Path) -> None:
    inv = nodelist("eks-p5.yaml")
    for node in inv["items"][:5]:
        node["status"]["allocatable"]["rdma/rdma_shared_device_a"] = "1"
        node["status"]["allocatable"]["rdma/rdma_shared_device_b"] = "2"
    run_build(_project(tmp_path, inv, extraResources=["rdma/"]))
    group = _queue(tmp_path)["resourceGroups"][0]
    assert group["coveredResources"] == [*FIXED, "rdma/rdma_shared_device_a", "rdma/rdma_shared_device_b"]
    assert group["flavors"][1]["resources"][4:] == [
        {"name": "rdma/rdma_shared_device_a", "nominalQuota": "4"},
        {"name": "rdma/rdma_shared_device_b", "nominalQuota": "8"},
    ]


def test_r44_a_cluster_that_lists_nothing_covers_what_r25_says(tmp_path: Path) -> None:
    run_build(_project(tmp_path, extraResources=[]))
    assert _queue(tmp_path)["resourceGroups"][0]["coveredResources"] == FIXED
    assert "extraQuota" not in _lock(tmp_path)


def test_r44_an_entry_no_gpu_node_has_is_a_warning_at_its_line(tmp_path: Path) -> None:
    result = run_build(_project(tmp_path, extraResources=[EFA, "rdma/"]))
    warning = result.warnings[-1]
    assert (warning.rule, warning.line, warning.message) == (
        "R44",
        warning.line,
        "cluster c1: extra resource 'rdma/' is in no GPU node's allocatable: "
        "the ClusterQueue does not cover it",
    )
    text = (tmp_path / "taugen.yaml").read_text().splitlines()
    assert "rdma/" in text[warning.line - 1]


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("nvidia.com/gpu", "is covered by the ClusterQueue already (R25)"),
        ("cpu", "is covered by the ClusterQueue already (R25)"),
        ("not a name", "name part 'not a name' must be 1-63 letters, digits, '-', '_' or '.'"),
        ("/", "is empty"),
    ],
)
def test_r44_an_entry_that_is_not_an_extra_resource_is_refused(tmp_path: Path, entry: str, why: str) -> None:
    problems = problems_of(lambda: run_build(_project(tmp_path, extraResources=[entry])))
    assert [(p.rule, p.line, p.message) for p in problems] == [
        ("R44", problems[0].line, f"clusters.0.extraResources.0: extra resource {entry!r} {why}")
    ]
    assert entry in (tmp_path / "taugen.yaml").read_text().splitlines()[problems[0].line - 1]


def test_r44_r26_quota_stays_at_its_high_water_mark_until_allowed_lower(tmp_path: Path) -> None:
    project = _project(tmp_path)
    run_build(project)
    inv = nodelist("eks-p5.yaml")
    del inv["items"][0]  # one Ready node gone: 3 Ready x 32 EFA would be 96
    (tmp_path / "inventory.yaml").write_text(json.dumps(inv))
    held = [(w.rule, w.message, w.hint) for w in run_build(project).warnings if w.rule == "R44"]
    assert held == [
        (
            "R44",
            f"gpu-class h100-80gb: the Ready nodes have {3 * 21 * 2**30} {HUGE}; "
            f"quota stays at its high-water mark {4 * 21 * 2**30}",
            "pass --allow-quota-decrease to lower it",
        ),
        (
            "R44",
            f"gpu-class h100-80gb: the Ready nodes have 96 {EFA}; quota stays at its high-water mark 128",
            "pass --allow-quota-decrease to lower it",
        ),
    ]
    assert _queue(tmp_path)["resourceGroups"][0]["flavors"][1]["resources"][5] == {
        "name": EFA,
        "nominalQuota": "128",
    }
    assert _lock(tmp_path)["extraQuota"]["h100-80gb"][EFA] == 128
    run_build(project, allow_quota_decrease=True)
    assert _queue(tmp_path)["resourceGroups"][0]["flavors"][1]["resources"][5] == {
        "name": EFA,
        "nominalQuota": "96",
    }
    assert _lock(tmp_path)["extraQuota"]["h100-80gb"] == {HUGE: 3 * 21 * 2**30, EFA: 96}


def test_r44_t4_guaranteed_tenants_get_extra_quota_in_proportion_exact_and_summing(tmp_path: Path) -> None:
    """40 GPUs, 128 EFA: 13 GPUs are 41.6 EFA, 7 are 22.4; floors 41 + 22, and the one EFA the
    exact sum (64) still lacks goes to the larger remainder (team-a). The shared queue keeps 64."""
    tenants = [
        {"namespace": "team-a", "guaranteed": {"h100-80gb": 13}},
        {"namespace": "team-b", "guaranteed": {"h100-80gb": 7}},
        {"namespace": "team-c"},
    ]
    project = _project(tmp_path, extraResources=[EFA])
    doc = yaml.safe_load(project.read_text())
    doc["clusters"][0]["tenants"] = tenants
    project.write_text(json.dumps(doc))
    run_build(project)

    def efa(queue: str) -> list[dict[str, Any]]:
        return [
            {f["name"]: f["resources"][4]} for f in _queue(tmp_path, queue)["resourceGroups"][0]["flavors"]
        ]

    zero = {"taugrid-default-cpu": {"name": EFA, "nominalQuota": "0"}}
    assert efa("taugrid-team-a") == [zero, {"taugrid-h100-80gb": {"name": EFA, "nominalQuota": "42"}}]
    assert efa("taugrid-team-b") == [zero, {"taugrid-h100-80gb": {"name": EFA, "nominalQuota": "22"}}]
    assert efa("taugrid") == [zero, {"taugrid-h100-80gb": {"name": EFA, "nominalQuota": "64"}}]
    assert resolve_shares(128, {"team-a": Fraction(13, 40), "team-b": Fraction(7, 40)}) == {
        "team-a": 42,
        "team-b": 22,
    }


def test_r44_r35_a_conflicted_lock_keeps_the_higher_extra_mark_of_each_side() -> None:
    def side(efa: int, huge: int) -> Lock:
        return Lock.model_validate(
            {
                "clusters": {
                    "c1": {
                        "observedAt": "2026-11-28T12:00:00Z",
                        "inputsDigest": "sha256:x",
                        "gpuQuota": {"h100-80gb": 40},
                        "extraQuota": {"h100-80gb": {EFA: efa, HUGE: huge}},
                    }
                }
            }
        )

    merged = merge_locks(side(128, 10), side(96, 20))
    assert merged.clusters["c1"].extraQuota == {"h100-80gb": {EFA: 128, HUGE: 20}}


def test_r44_r35_a_lost_lock_reads_the_extra_marks_back_from_the_cohorts_queues(tmp_path: Path) -> None:
    """The committed queues hold 42 + 22 + 64 = 128 EFA: with taugen.lock gone and a Ready node
    gone (96 observed), the build keeps 128 and writes it into the new lock."""
    tenants = [
        {"namespace": "team-a", "guaranteed": {"h100-80gb": 13}},
        {"namespace": "team-b", "guaranteed": {"h100-80gb": 7}},
    ]
    project = _project(tmp_path, extraResources=[EFA])
    doc = yaml.safe_load(project.read_text())
    doc["clusters"][0]["tenants"] = tenants
    project.write_text(json.dumps(doc))
    run_build(project)
    (tmp_path / "taugen.lock").unlink()
    inv = nodelist("eks-p5.yaml")
    del inv["items"][0]
    (tmp_path / "inventory.yaml").write_text(json.dumps(inv))
    result = run_build(project)
    assert [w.rule for w in result.warnings] == ["R35", "R26", "R44"]
    assert _lock(tmp_path)["extraQuota"] == {"h100-80gb": {EFA: 128}}


def test_r44_m2_the_managers_queue_covers_the_workers_extra_resources_summed(tmp_path: Path) -> None:
    worker = WORKER.replace("    tenants:", "    extraResources: [vpc.amazonaws.com/efa]\n    tenants:")
    clusters = "".join(
        (worker if n != "fleet-hub" else WORKER).format(name=n, inventory=i) for n, i in INVENTORIES.items()
    )
    project = fleet_project(tmp_path, clusters)
    nodes = tmp_path / INVENTORIES["westus3-dev"]
    listed = json.loads(nodes.read_text())
    for node in listed["items"][:3]:  # three A100 nodes, two of them Ready
        node["status"]["allocatable"][EFA] = "2"
    nodes.write_text(json.dumps(listed))
    inventory = tmp_path / INVENTORIES["westus2-dev"]
    other = yaml.safe_load(inventory.read_text())
    for node in other["nodes"][:3]:  # two H100 nodes and one A100 node
        node["allocatable"][EFA] = "4"
    inventory.write_text(yaml.safe_dump(other))
    run_build(project)
    manager = objects(tmp_path, "fleet-hub")["ClusterQueue/taugrid-dev"]["spec"]["resourceGroups"][0]
    assert manager["coveredResources"][4:] == [EFA]
    efa = {f["name"]: f["resources"][4] for f in manager["flavors"]}
    assert efa == {
        "taugrid-default-cpu": {"name": EFA, "nominalQuota": "0"},
        "taugrid-a100-80gb": {"name": EFA, "nominalQuota": str(2 * 2 + 4)},  # westus3's Ready + westus2's
        "taugrid-h100-80gb": {"name": EFA, "nominalQuota": "8"},
    }


def test_r44_a_kai_cluster_refuses_extra_resources(tmp_path: Path) -> None:
    project = write_project(tmp_path, scheduler="kai", extraResources=[EFA])
    problems = problems_of(lambda: run_build(project))
    assert [(p.rule, p.line, p.message, p.hint) for p in problems] == [
        (
            "R44",
            4,
            "clusters.0: cluster c1 sets extraResources, which only scheduler kueue reads",
            "remove extraResources: KAI queues hold no quota for device resources",
        )
    ]
