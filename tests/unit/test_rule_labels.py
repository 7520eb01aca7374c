"""Rules are untrusted (issue 17 items 8, 9; issue 32): reserved label namespaces, labels read as
topology domains, and gpu-classes."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.resolve.labels import reserved_prefix
from taugen.resolve.rules import gpu_class_error
from tests.support.helpers import gpu_node, inventory, rules
from tests.support.unit import line_of, problems_of, resolve_project, write_project


@pytest.mark.parametrize(
    ("key", "reserved"),
    [
        ("node-role.kubernetes.io/control-plane", "kubernetes.io"),
        ("kubernetes.io/arch", "kubernetes.io"),
        ("node-restriction.kubernetes.io/tenant", "kubernetes.io"),
        ("topology.kubernetes.io/zone", "kubernetes.io"),
        ("k8s.io/x", "k8s.io"),
        ("kueue.x-k8s.io/queue-name", "x-k8s.io"),
        ("net.unbounded-cloud.io/network-domain", "net.unbounded-cloud.io"),
        ("tau.azure.com/quota", "tau.azure.com"),
        ("kueue.azure.com/other", "kueue.azure.com"),
        ("nvidia.com/gpu.deploy.driver", "nvidia.com"),
        ("network.topology.nvidia.com/spine", "nvidia.com"),
        ("tau.azure.com/gpu-class", None),
        ("kueue.azure.com/gpu-series", None),
        ("notkubernetes.io/x", None),
        ("node-pool.example.com/role", None),
        ("role", None),
    ],
)
def test_reserved_prefixes(key: str, reserved: str | None) -> None:
    assert reserved_prefix(key) == reserved


def test_gpu_class_default_cpu_is_reserved() -> None:
    assert gpu_class_error("default-cpu", {}) == (
        "gpu-class 'default-cpu' is reserved: its flavor taugrid-default-cpu is the CPU-only flavor",
        "name the hardware, e.g. h200-141gb",
    )
    assert gpu_class_error("h200-141gb", {}) is None


@pytest.mark.parametrize(
    "key",
    ["nvidia.com/gpu.deploy.driver", "nvidia.com/mig.config", "nvidia.com/gpu.workload.config"],
)
def test_the_gpu_operators_control_labels_are_refused_at_the_rule(tmp_path: Path, key: str) -> None:
    """Issue 32: a rule could set `nvidia.com/gpu.deploy.driver=false` (the operator removes the
    driver) or `nvidia.com/mig.config` (it repartitions the GPUs) on every node it matches."""
    doc = rules((["Standard_ND96isr_H200_v5"], {key: "false"}))
    project = write_project(tmp_path, inventory([gpu_node("h-0")]), doc)
    (problem,) = problems_of(lambda: resolve_project(project))
    assert (problem.rule, problem.path, problem.line) == (
        "R17",
        tmp_path / "rules.yaml",
        _line(tmp_path, key),
    )
    assert problem.message == (
        f"label {key} is in the reserved namespace nvidia.com: NVIDIA's GPU operator and GPU feature "
        "discovery own it, and the operator acts on its control labels (nvidia.com/gpu.deploy.driver=false "
        "removes the driver, nvidia.com/mig.config repartitions the GPUs)"
    )


@pytest.mark.parametrize(
    ("key", "topology"),
    [
        ("topology.k8s.aws/network-node-layer-3", "default"),  # every preset's keys, whichever is used
        ("cloud.google.com/gce-topology-block", "gke"),
        ("network.topology.nvidia.com/spine", "default"),  # also under nvidia.com: reserved first
        ("rack.example.com/rack", {"networkDomain": ["rack.example.com/rack"]}),  # the cluster's own
    ],
)
def test_a_label_read_as_a_topology_domain_is_refused_at_the_rule(
    tmp_path: Path, key: str, topology: object
) -> None:
    doc = rules((["Standard_ND96isr_H200_v5"], {key: "fabric-9"}))
    project = write_project(tmp_path, inventory([gpu_node("h-0")]), doc, topologyLabels=topology)
    (problem,) = problems_of(lambda: resolve_project(project))
    assert (problem.path, problem.line) == (tmp_path / "rules.yaml", _line(tmp_path, key))
    if key.endswith("nvidia.com/spine"):
        assert problem.rule == "R17" and "reserved namespace nvidia.com" in problem.message
        return
    assert (problem.rule, problem.message) == (
        "R37",
        f"label {key} is read as a topology domain: a rule that sets it moves nodes between domains",
    )


def test_a_rule_label_of_its_own_namespace_still_applies(tmp_path: Path) -> None:
    doc = rules((["Standard_ND96isr_H200_v5"], {"node-pool.example.com/role": "train"}))
    resolved = resolve_project(write_project(tmp_path, inventory([gpu_node("h-0")]), doc))
    assert resolved.nodes[0].labels["node-pool.example.com/role"] == "train"


def _line(root: Path, key: str) -> int:
    return line_of(root / "rules.yaml", key)
