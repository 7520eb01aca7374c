"""R39 (issue 32): `gpuNodeTaints` are tolerated by every GPU run taugen renders; naming a taint
Kubernetes or an autoscaler sets on a broken, cordoned or leaving node made every GPU job tolerate
`node.kubernetes.io/unschedulable` or `not-ready` and stay on such nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.load.project import load_project
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import line_of, problems_of, write_project


@pytest.mark.parametrize(
    "key",
    [
        "node.kubernetes.io/unschedulable",
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
        "node.kubernetes.io/out-of-service",
        "node.cloudprovider.kubernetes.io/shutdown",
        "node-role.kubernetes.io/control-plane",
        "karpenter.sh/disrupted",
        "ToBeDeletedByClusterAutoscaler",
    ],
)
def test_a_node_lifecycle_taint_is_refused_at_its_position(tmp_path: Path, key: str) -> None:
    taints = [{"key": "sku", "value": "gpu", "effect": "NoSchedule"}, {"key": key, "effect": "NoExecute"}]
    project = write_project(tmp_path, inventory([gpu_node("h-0")]), gpuNodeTaints=taints)
    (problem,) = problems_of(lambda: load_project(project))
    assert (problem.rule, problem.line) == ("R39", line_of(project, f"key: {key}"))
    assert problem.message == (
        f"clusters.0.gpuNodeTaints.1.key: taint {key} is one Kubernetes or an autoscaler sets on a broken, "
        "cordoned or leaving node: every GPU run would tolerate it and stay on such nodes"
    )


@pytest.mark.parametrize(
    "key", ["sku", "nvidia.com/gpu", "gpu.example.com/dedicated", "kubernetes.io-like/x"]
)
def test_the_taints_gpu_pools_are_created_with_are_accepted(tmp_path: Path, key: str) -> None:
    project = write_project(
        tmp_path, inventory([gpu_node("h-0")]), gpuNodeTaints=[{"key": key, "effect": "NoSchedule"}]
    )
    (cluster,) = load_project(project).project.clusters
    assert [t.key for t in cluster.gpuNodeTaints] == [key]
