"""R44, R45 through the CLI: an EKS cluster of p5.48xlarge nodes (tests/data/platforms/eks-p5.yaml:
five nodes of 8 H100 and 32 EFA, the fifth NotReady) lists `vpc.amazonaws.com/efa` in
extraResources; a 4 x 8 GPU torchrun run that asks each rank for 32 EFA builds, preflights
eligible and simulates admitted; a run asking for a resource no queue covers is refused at it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import Run

DATA = Path(__file__).resolve().parents[1] / "data" / "platforms"
EFA = "vpc.amazonaws.com/efa"
RUN = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Run
metadata: {name: llama-efa, namespace: team-a}
profile: h100-training
workers: 4
resources: {nvidia.com/gpu: 8, cpu: "90", memory: 1600Gi, vpc.amazonaws.com/efa: 32}
launcher: torchrun
image: ghcr.io/example/train:1.0
command: [python, train.py]
"""


def _project(root: Path) -> Path:
    shutil.copy(DATA / "eks-p5.yaml", root / "inventory.yaml")
    profile = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadProfile",
        "metadata": {"name": "h100-training"},
        "policy": {"gpu_class": "h100-80gb", "priority_tier": "default", "topology": "unconstrained"},
    }
    (root / "profiles").mkdir()
    (root / "profiles" / "h100-training.yaml").write_text(yaml.safe_dump(profile))
    rules = {
        "extraNodeLabelRules": [
            {"match": {"vmSizes": ["p5.48xlarge"]}, "labels": {"tau.azure.com/gpu-class": "h100-80gb"}}
        ]
    }
    (root / "rules.yaml").write_text(yaml.safe_dump(rules))
    project = f"""\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Project
profiles: [profiles]
clusters:
  - name: eks-p5
    inventory: inventory.yaml
    rules: [rules.yaml]
    topologyLabels: eks
    gpuNodeTaints: [{{key: nvidia.com/gpu, effect: NoSchedule}}]
    extraResources: [{EFA}]
    tenants: [{{namespace: team-a}}]
"""
    (root / "taugen.yaml").write_text(project)
    return root / "taugen.yaml"


def _built(run: Run, root: Path) -> Path:
    config = _project(root)
    result = run("build", "-c", config)
    assert result.exit_code == 0, result.output
    return config


def test_r44_build_covers_efa_with_the_ready_nodes_allocatable(run: Run, tmp_path: Path) -> None:
    _built(run, tmp_path)
    queue = yaml.safe_load((tmp_path / "out" / "eks-p5" / "clusterqueue.yaml").read_text())
    resources = ["cpu", "memory", "nvidia.com/gpu", "tau.azure.com/torchrun-host-slot", EFA]

    def flavor(name: str, *quota: str) -> dict[str, Any]:
        return {
            "name": name,
            "resources": [{"name": r, "nominalQuota": q} for r, q in zip(resources, quota, strict=True)],
        }

    assert queue == {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "ClusterQueue",
        "metadata": {
            "name": "taugrid",
            "annotations": {
                "argocd.argoproj.io/sync-options": "SkipDryRunOnMissingResource=true",
                "argocd.argoproj.io/sync-wave": "0",
            },
            "labels": {"app.kubernetes.io/managed-by": "taugen"},
        },
        "spec": {
            "namespaceSelector": {
                "matchExpressions": [
                    {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-a"]}
                ]
            },
            "preemption": {"withinClusterQueue": "LowerPriority"},
            "queueingStrategy": "BestEffortFIFO",
            "resourceGroups": [
                {
                    "coveredResources": resources,
                    "flavors": [
                        flavor("taugrid-default-cpu", "100k", "100Ti", "0", "0", "0"),
                        flavor("taugrid-h100-80gb", "100k", "100Ti", "40", "4", "128"),  # 4 Ready x 32 EFA
                    ],
                }
            ],
        },
    }


def test_r44_a_run_requesting_efa_preflights_eligible_and_simulates_admitted(
    run: Run, tmp_path: Path
) -> None:
    config = _built(run, tmp_path)
    run_file = tmp_path / "run.yaml"
    run_file.write_text(RUN)
    result = run("preflight", run_file, "-c", config, "-o", "json")
    assert result.exit_code == 0, result.output
    checks = {c["id"]: c for c in json.loads(result.stdout)["checks"]}
    assert all(c["ok"] for c in checks.values()), checks
    assert checks["quota"]["message"] == (
        "ClusterQueue taugrid, flavor taugrid-h100-80gb: cpu 360 of 100k, memory 6400Gi of 100Ti, "
        "nvidia.com/gpu 32 of 40, tau.azure.com/torchrun-host-slot 4 of 4, vpc.amazonaws.com/efa 128 of 128"
    )
    assert _simulated(run, tmp_path, config, RUN) == [("llama-efa", "admitted", 4)]


def test_r44_preflight_and_simulate_count_efa_per_node(run: Run, tmp_path: Path) -> None:
    """33 EFA per rank is within the quota (128) but above any node's 32: no node holds a rank."""
    config = _built(run, tmp_path)
    asks_33 = RUN.replace("workers: 4", "workers: 1").replace("efa: 32", "efa: 33")
    run_file = tmp_path / "run.yaml"
    run_file.write_text(asks_33)
    result = run("preflight", run_file, "-c", config, "-o", "json")
    failed = [c["id"] for c in json.loads(result.stdout)["checks"] if not c["ok"]]
    assert (result.exit_code, "quota" in failed, failed != []) == (1, False, True)
    assert _simulated(run, tmp_path, config, asks_33) == [("llama-efa", "pending", 1)]


def _simulated(run: Run, root: Path, config: Path, text: str) -> list[tuple[str, str, int]]:
    """`text` (a Run) simulated as the one run of a WorkloadSet: (name, status, pods) per run."""
    body = text.split("kind: Run\n", 1)[1].replace("metadata:", "  - metadata:", 1).splitlines()
    runs = [body[0], '    createdAt: "2026-03-02T09:00:00Z"', *("    " + line for line in body[1:])]
    workloads = root / "set.yaml"
    head = "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: WorkloadSet\nruns:\n"
    workloads.write_text(head + "\n".join(runs) + "\n")
    result = run("simulate", workloads, "-c", config, "-o", "json")
    assert result.exit_code == 0, result.output
    return [(r["name"], r["status"], r["pods"]) for r in json.loads(result.stdout)["runs"]]


def test_r45_five_ranks_of_32_efa_exceed_the_quota(run: Run, tmp_path: Path) -> None:
    """The fifth node is NotReady: its EFA is not quota, so 5 x 32 = 160 > 128."""
    config = _built(run, tmp_path)
    run_file = tmp_path / "run.yaml"
    run_file.write_text(RUN.replace("workers: 4", "workers: 5"))
    result = run("preflight", run_file, "-c", config, "-o", "json")
    quota = next(c for c in json.loads(result.stdout)["checks"] if c["id"] == "quota")
    assert (result.exit_code, quota["ok"]) == (1, False)
    assert "vpc.amazonaws.com/efa 160 exceeds the nominal quota 128 (lacks 32)" in quota["message"]


def test_r45_a_run_requesting_an_uncovered_resource_is_refused_at_the_request(
    run: Run, tmp_path: Path
) -> None:
    config = _built(run, tmp_path)
    run_file = tmp_path / "run.yaml"
    run_file.write_text(RUN.replace("vpc.amazonaws.com/efa: 32", "rdma/rdma_shared_device_a: 1"))
    result = run("preflight", run_file, "-c", config)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{run_file}:6:59: error: resource rdma/rdma_shared_device_a is covered by no ClusterQueue of "
        "cluster eks-p5: Kueue never admits a workload that requests it [R45]\n"
        "  hint: add `rdma/rdma_shared_device_a` to extraResources of cluster eks-p5 in taugen.yaml and "
        "build (R44), or remove the request\n"
    )
    assert run("render", run_file, "-c", config).exit_code == 2


def test_r44_explain_and_inventory_show_give_the_extra_quota(run: Run, tmp_path: Path) -> None:
    config = _built(run, tmp_path)
    explained = run("explain", "class", "h100-80gb", "-c", config)
    assert explained.exit_code == 0, explained.output
    assert explained.stdout.splitlines()[1:4] == [
        "  nodes 5, GPUs 40, Ready slots 4 (R27)",
        "  GPU quota 40, high-water mark in the lock 40 (R26)",
        f"  extra quota {EFA} 128 (R44)",
    ]
    as_json = json.loads(run("explain", "class", "h100-80gb", "-c", config, "-o", "json").stdout)
    assert as_json["extraQuota"] == {EFA: 128}
    shown = run("inventory", "show", "-c", config)
    assert shown.stdout.splitlines()[-2:] == [
        "gpu-class  nodes  GPUs  quota  high-water  Ready slots                extra quota",
        f"h100-80gb      5    40     40          40            4  {EFA} 128",
    ]
    (row,) = json.loads(run("inventory", "show", "-c", config, "-o", "json").stdout)["classes"]
    assert row["extraQuota"] == {EFA: 128}


def test_r44_diff_shows_lower_extra_quota_as_capacity_lost(run: Run, tmp_path: Path) -> None:
    config = _built(run, tmp_path)
    before = tmp_path / "before"
    shutil.copytree(tmp_path / "out", before)
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(inventory.read_text().replace(f"{EFA}: '32'", f"{EFA}: '16'"))
    assert run("build", "-c", config, "--allow-quota-decrease").exit_code == 0
    result = run("diff", before, tmp_path / "out", "-c", config)
    change = f"ClusterQueue taugrid: flavor taugrid-h100-80gb {EFA} 128 → 64"
    assert [line.strip() for line in result.stdout.splitlines() if change in line] == [
        f"eks-p5: {change}",
        f"~ {change}  [capacity]",
    ]
