"""Generated scenarios for simulate vs Kueue (issue 31 item 5): small fleets of one GPU class,
their domains, readiness, taints and partly allocatable hosts, and a few runs in sequence
(every topology mode, slices, torchrun, priorities, CPU-only runs), from a fixed seed. All the
scenarios are clusters of one taugen project, built once."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.helpers import write_yaml

SEED = 31_005
COUNT = 320
OBSERVED = "2026-11-28T12:00:00Z"
FABRIC = "net.unbounded-cloud.io/network-domain"
RACK = "net.unbounded-cloud.io/accelerator-domain"
# gpu-class -> the VM size, its GPUs, cpu and memory (the catalog's sizes; GB200 by the rule below)
CLASSES = {
    "h200-141gb": ("Standard_ND96isr_H200_v5", 8, 96, "1800Gi"),
    "gb200-186gb": ("Standard_ND128isr_GB200_v6", 4, 128, "900Gi"),
}
RULES = {
    "extraNodeLabelRules": [
        {
            "match": {"vmSizes": ["Standard_ND128isr_GB200_v6"]},
            "labels": {"kueue.azure.com/gpu-series": "nd-gb200-v6", "tau.azure.com/gpu-class": "gb200-186gb"},
        }
    ]
}
REQUIRED = ("same-host", "same-accelerator-domain", "same-network-domain", "same-site")
PREFERRED = ("prefer-host", "prefer-accelerator-domain", "prefer-network-domain", "prefer-site")
LEVEL_OF = {t: t.split("-", 1)[1] for t in REQUIRED + PREFERRED}  # same-host -> host
NARROWER = ("host", "accelerator-domain", "network-domain", "site")  # a slice level is at most the run's
MAINTENANCE = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}
GPU_TAINT = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}  # taugen's default gpuNodeTaints


@dataclass
class Scenario:
    name: str  # the cluster's name, and the prefix of everything it puts on the real cluster
    gpu_class: str
    nodes: list[dict[str, Any]]
    runs: list[dict[str, Any]]
    tenants: list[str] = field(default_factory=lambda: ["team-a"])
    topology: dict[str, Any] | None = None  # the cluster entry's `topology:` (R42), when it declares levels

    def workload_set(self) -> dict[str, Any]:
        return {
            "apiVersion": "taugen.tau.azure.com/v1alpha1",
            "kind": "WorkloadSet",
            "cluster": self.name,
            "runs": self.runs,
        }


def scenarios(seed: int = SEED, count: int = COUNT) -> list[Scenario]:
    rng = random.Random(seed)
    return [_scenario(rng, f"s{i:03d}") for i in range(count)]


def _scenario(rng: random.Random, name: str) -> Scenario:
    gpu_class = rng.choice(sorted(CLASSES))
    tenants = ["team-a", "team-b"][: rng.choice((1, 1, 2))]
    nodes = _fleet(rng, gpu_class)
    runs = [_run(rng, gpu_class, tenants, i) for i in range(rng.randint(1, 6))]
    return Scenario(name, gpu_class, nodes, runs, tenants)


def _fleet(rng: random.Random, gpu_class: str) -> list[dict[str, Any]]:
    vm_size, gpus, cpu, memory = CLASSES[gpu_class]
    fabrics = [f"ib-{c}" for c in "abc"[: rng.randint(1, 3)]]
    tainted, gpu_tainted = rng.random() < 0.2, rng.random() < 0.3
    nodes = []
    for i in range(rng.randint(2, 9)):
        labels: dict[str, str] = {}
        if rng.random() < 0.85:
            labels[FABRIC] = rng.choice(fabrics)
            if gpu_class == "gb200-186gb":
                labels[RACK] = f"nvl72-{labels[FABRIC][-1]}{rng.randint(0, 1)}"
        node: dict[str, Any] = {
            "name": f"n{i}",
            "vmSize": vm_size,
            "allocatable": {
                "cpu": str(cpu if rng.random() < 0.85 else cpu // 4),
                "memory": memory,
                "nvidia.com/gpu": str(gpus if rng.random() < 0.85 else gpus // 2),
            },
            "labels": labels,
        }
        if rng.random() < 0.1:
            node["ready"] = False
        taints = ([GPU_TAINT] if gpu_tainted else []) + (
            [MAINTENANCE] if tainted and rng.random() < 0.4 else []
        )
        if taints or gpu_tainted:
            node["taints"] = taints
        nodes.append(node)
    return nodes


def _run(rng: random.Random, gpu_class: str, tenants: list[str], index: int) -> dict[str, Any]:
    created = f"2026-11-29T{8 + index:02d}:{rng.randint(0, 59):02d}:00Z"
    run: dict[str, Any] = {
        "metadata": {"name": f"r{index}", "namespace": rng.choice(tenants)},
        "createdAt": created,
        "profile": gpu_class,
    }
    if rng.random() < 0.08:  # CPU-only: quota, no topology (kube-scheduler places it)
        return run | {"profile": "cpu", "workers": rng.randint(1, 4), "resources": {"cpu": "4"}}
    gpus = CLASSES[gpu_class][1]
    topology = rng.choice(REQUIRED + PREFERRED + ("unconstrained",))
    workers = rng.randint(1, 6)
    per_pod = rng.choice([g for g in (1, 2, 4, 8) if g <= gpus])
    resources: dict[str, Any] = {"nvidia.com/gpu": per_pod}
    if rng.random() < 0.3:
        resources["cpu"] = str(rng.choice((8, 24, 48)))
    policy: dict[str, Any] = {"topology": topology}
    if rng.random() < 0.25:
        policy["priority_tier"] = "priority"
    torchrun = workers > 1 and topology != "same-host" and rng.random() < 0.3
    if topology in REQUIRED and workers > 1 and rng.random() < 0.25:
        policy["slice"] = _slice(rng, topology, workers, torchrun)
    run |= {"policy": policy, "workers": workers, "resources": resources}
    if torchrun:
        run["launcher"] = "torchrun"
    return run


def _slice(rng: random.Random, topology: str, workers: int, torchrun: bool) -> dict[str, Any]:
    """A slice level no wider than the run's, of a size that divides the workers (taugen refuses
    the rest as bad input, S3); torchrun keeps one rank per host, so host slices of one."""
    levels = NARROWER[: NARROWER.index(LEVEL_OF[topology]) + 1]
    level = rng.choice(levels)
    sizes = [
        s for s in range(1, workers + 1) if workers % s == 0 and not (torchrun and level == "host" and s > 1)
    ]
    return {"level": level, "size": rng.choice(sizes)}


def write_project(root: Path, found: list[Scenario]) -> Path:
    """One project: a cluster per scenario, its own inventory; the profiles of both classes."""
    for gpu_class in CLASSES:
        profile = {"priority_tier": "default", "gpu_class": gpu_class, "topology": "same-network-domain"}
        _profile(root, gpu_class, profile)
    _profile(root, "cpu", {"priority_tier": "default", "topology": "unconstrained"})
    write_yaml(root / "rules.yaml", RULES)
    clusters = []
    for scenario in found:
        inventory = {
            "apiVersion": "taugen.tau.azure.com/v1alpha1",
            "kind": "ClusterInventory",
            "metadata": {"name": scenario.name},
            "observedAt": OBSERVED,
            "site": "eastus",
            "nodes": scenario.nodes,
        }
        write_yaml(root / "inventories" / f"{scenario.name}.yaml", inventory)
        write_yaml(root / "sets" / f"{scenario.name}.yaml", scenario.workload_set())
        entry = {
            "name": scenario.name,
            "inventory": f"inventories/{scenario.name}.yaml",
            "rules": ["rules.yaml"],
            "tenants": [{"namespace": t} for t in scenario.tenants],
        }
        clusters.append(entry | ({"topology": scenario.topology} if scenario.topology else {}))
    project = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Project",
        "profiles": ["profiles"],
        "clusters": clusters,
    }
    return write_yaml(root / "taugen.yaml", project)


def _profile(root: Path, name: str, policy: dict[str, Any]) -> None:
    doc = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadProfile",
        "metadata": {"name": name},
        "policy": policy,
    }
    write_yaml(root / "profiles" / f"{name}.yaml", doc)
