"""R39 (issue 32): `gpuNodeTaints` are tolerated by every GPU run taugen renders; naming a taint
Kubernetes or an autoscaler sets on a broken, cordoned or leaving node made every GPU job tolerate
`node.kubernetes.io/unschedulable` or `not-ready` and stay on such nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.engines.runs.node_filters import toleration
from taugen.engines.runs.render import gpu_tolerations
from taugen.load.project import load_project
from taugen.models.node_filters import FilterTaint as NodeTaint
from taugen.models.node_filters import untolerated
from taugen.models.platform import GpuTaint
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


@pytest.mark.parametrize(
    ("written", "rendered", "tolerated"),
    [
        # no value: Exists, the taint with any value or none (issue 34: EKS nodes carry both)
        (
            GpuTaint(key="nvidia.com/gpu", effect="NoSchedule"),
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            {
                "nvidia.com/gpu=present:NoSchedule",
                "nvidia.com/gpu:NoSchedule",
                "nvidia.com/gpu=yes:NoSchedule",
            },
        ),
        # a value: Equal, that value only
        (
            GpuTaint(key="nvidia.com/gpu", value="present", effect="NoSchedule"),
            {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
            {"nvidia.com/gpu=present:NoSchedule"},
        ),
    ],
)
def test_r39_render_tolerates_a_taint_without_a_value_by_key(
    written: GpuTaint, rendered: dict[str, str], tolerated: set[str]
) -> None:
    """What render writes, and which node taints preflight and simulate then let the pod onto."""
    [found] = gpu_tolerations([written])
    assert found == rendered
    pod = [toleration(found["key"], found["operator"], found.get("value", ""), found["effect"])]
    nodes = [NodeTaint("nvidia.com/gpu", v, "NoSchedule") for v in ("present", "", "yes")]
    assert {str(t) for t in nodes if untolerated([t], pod) is None} == tolerated
