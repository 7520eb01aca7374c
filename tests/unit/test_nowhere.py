"""Issue 34 item 6: preflight and simulate give one explanation of why a pod fits on no node
(taugen/engines/placement/nowhere.py): a resource whose request per pod is above every node's
allocatable, with both numbers; taints not tolerated; node affinity not met; not Ready.
Simulate keeps Kueue's own words last (R26's vectors and the real-cluster differential compare
them) and puts the explanation before them.

The project: the lab's four H200 hosts, all Ready in fabric ib-a (96 cpu, 1800Gi, 8 GPUs each).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.commands.preflight.check import preflight
from taugen.engines.placement.nowhere import HostOffer, PodFilters, why_nowhere
from taugen.models.node_filters import FilterTaint, FilterToleration, NodeRequirement
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT, context_of, run_doc

MAINTENANCE = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}
SKU = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}  # the default gpuNodeTaints (R24)
KUEUE_CPU = (
    'Kueue: topology "taugrid-gpu-topology" doesn\'t allow to fit any of 4 pod(s). Total nodes: 4; '
    'excluded: resource "cpu": 4'
)
CPU = "no node holds one pod: cpu 120 per pod is above every node's allocatable (at most 96)"
TAINTED = 'no node holds one pod: 4 with the untolerated taint "maintenance=true:NoSchedule"'
AWAY = [{"key": "pool", "operator": "In", "values": ["reserved"]}]  # no node has the label


def _lab(dest: Path, taints: dict[str, list[dict[str, str]]] | None = None) -> Path:
    """The lab with its H200 hosts h200-a0..a3 all Ready in ib-a (ib-b's two removed)."""
    shutil.copytree(PROJECT, dest)
    inventory = yaml.safe_load((dest / "inventory.yaml").read_text())
    inventory["nodes"] = [n for n in inventory["nodes"] if n["name"] not in ("h200-b0", "h200-b1")]
    for raw in inventory["nodes"]:
        if raw["name"].startswith("h200-"):
            raw.pop("ready", None)
            if taints is not None:
                raw["taints"] = [SKU, *taints.get(raw["name"], [])]
    write_yaml(dest / "inventory.yaml", inventory)
    build(BuildOptions(project_file=dest / "taugen.yaml"))
    return dest / "taugen.yaml"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _lab(tmp_path_factory.mktemp("nowhere") / "lab")


@pytest.fixture(scope="module")
def maintained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every H200 host carries a maintenance taint no run tolerates."""
    every = {f"h200-a{i}": [MAINTENANCE] for i in range(4)}
    return _lab(tmp_path_factory.mktemp("maintained") / "lab", every)


def _topology(project: Path, doc: dict[str, Any]) -> tuple[bool, str]:
    (topology,) = [c for c in preflight(context_of(project, doc)).checks if c.id == "topology"]
    return topology.ok, topology.message


def _simulated(run: Run, project: Path, tmp_path: Path, doc: dict[str, Any]) -> tuple[str, str]:
    workload: dict[str, Any] = {
        "metadata": {"name": "train", "namespace": "team-a"},
        "createdAt": "2026-11-29T10:00:00Z",
    }
    workload.update(
        {
            k: doc[k]
            for k in ("profile", "workers", "resources", "launcher", "policy", "workload", "jobs")
            if k in doc
        }
    )
    path = write_yaml(tmp_path / "set.yaml", {"kind": "WorkloadSet", "runs": [workload]})
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    (answer,) = json.loads(result.stdout)["runs"]
    return answer["status"], answer["reason"]


def _cpu_above(workers: int = 4) -> dict[str, Any]:
    return run_doc("h200-train", workers, "torchrun", resources={"nvidia.com/gpu": 8, "cpu": "120"})


def test_preflight_names_the_resource_above_allocatable(lab: Path) -> None:
    """The issue's case: 'holds 0 ranks on 4 Ready nodes' now says cpu, with both numbers."""
    assert _topology(lab, _cpu_above()) == (
        False,
        "no single tau.azure.com/network-domain holds 4 ranks (multi-node torchrun: one rank per "
        f"node); the largest, eastus/ib-a, holds 0 ranks on 4 Ready nodes: lacks 4; {CPU}",
    )


def test_simulate_gives_the_same_cause_before_kueues_words(run: Run, lab: Path, tmp_path: Path) -> None:
    assert _simulated(run, lab, tmp_path, _cpu_above()) == (
        "pending",
        f"topology: no tau.azure.com/network-domain domain holds 4 pods; {CPU}; {KUEUE_CPU}",
    )


EXCLUDED = (
    "no Ready h200-141gb node the run may use in cluster lab (4 Ready with an untolerated taint or "
    "outside the run's node affinity, excluded)"
)
AFFINITY = "no node holds one pod: 4 outside the run's node affinity"
FILTERED = [
    pytest.param(
        "maintained",
        run_doc("h200-train", 2, "torchrun", resources={"nvidia.com/gpu": 8}),
        f"tau.azure.com/network-domain: {EXCLUDED}; {TAINTED}",
        f"topology: no tau.azure.com/network-domain domain holds 2 pods; {TAINTED}; Kueue: topology "
        '"taugrid-gpu-topology" doesn\'t allow to fit any of 2 pod(s). Total nodes: 4; excluded: taint '
        '"maintenance=true:NoSchedule": 4',
        id="taint",
    ),
    pytest.param(
        "lab",
        run_doc("h200-any", 1, resources={"nvidia.com/gpu": 8}, policy={"node_affinity": AWAY}),
        f"unconstrained: {EXCLUDED}; {AFFINITY}",
        f'topology: no set of hosts holds 1 pods; {AFFINITY}; Kueue: topology "taugrid-gpu-topology" '
        "doesn't allow to fit any of 1 pod(s). Total nodes: 4; excluded: affinity: 4",
        id="affinity",
    ),
]


@pytest.mark.parametrize(("project", "doc", "checked", "simulated"), FILTERED)
def test_nodes_the_pods_may_not_use(
    run: Run,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    project: str,
    doc: dict[str, Any],
    checked: str,
    simulated: str,
) -> None:
    """Every host tainted for maintenance (untolerated), or none inside the node affinity."""
    lab: Path = request.getfixturevalue(project)
    assert _topology(lab, doc) == (False, checked)
    assert _simulated(run, lab, tmp_path, doc) == ("pending", simulated)


def test_a_run_that_fits_a_node_gets_no_explanation(lab: Path) -> None:
    """Five ranks on four hosts: one fits on each, the fabric is too small; nothing to add."""
    doc = run_doc("h200-train", 5, "torchrun", resources={"nvidia.com/gpu": 8})
    assert _topology(lab, doc) == (
        False,
        "no single tau.azure.com/network-domain holds 5 ranks (multi-node torchrun: one rank per node); "
        "the largest, eastus/ib-a, holds 4 ranks on 4 Ready nodes: lacks 1",
    )


def _node(name: str, ready: bool = True, taints: tuple[FilterTaint, ...] = (), **labels: str) -> HostOffer:
    allocatable = {"cpu": 96_000, "memory": 1800 * 2**30, "nvidia.com/gpu": 8, "pods": 110}
    return HostOffer(name, ready, allocatable, taints, labels)


def test_each_reason_in_the_schedulers_order() -> None:
    """Not Ready, then a taint, then node affinity; on the nodes left, every resource above
    every node's allocatable (memory in binary units)."""
    taint = FilterTaint("maintenance", "", "NoExecute")
    nodes = [_node("a", ready=False), _node("b", taints=(taint,)), _node("c"), _node("d", pool="x")]
    pool = ((NodeRequirement(key="pool", operator="In", values=("x",)),),)
    request = {"cpu": 1500, "memory": 2048 * 2**30, "nvidia.com/gpu": 9}
    assert why_nowhere(request, nodes, PodFilters(affinity=pool)) == (
        'no node holds one pod: 1 not Ready; 1 with the untolerated taint "maintenance:NoExecute"; 1 '
        "outside the run's node affinity; on the 1 left, memory 2Ti per pod is above every node's "
        "allocatable (at most 1800Gi); nvidia.com/gpu 9 per pod is above every node's allocatable (at most 8)"
    )


def test_resources_no_node_has_at_once() -> None:
    """Each resource fits some node, none fits them all: the requests are named together."""
    big_cpu = HostOffer("a", True, {"cpu": 200_000, "memory": 10 * 2**30})
    big_memory = HostOffer("b", True, {"cpu": 8_000, "memory": 100 * 2**30})
    request = {"cpu": 100_500, "memory": 50 * 2**30}
    assert why_nowhere(request, [big_cpu, big_memory]) == (
        "no node holds one pod: no node has room for all of cpu 100500m, memory 50Gi per pod at once"
    )


def test_a_tolerated_taint_and_a_fitting_node_say_nothing() -> None:
    taint = FilterTaint("maintenance", "true", "NoSchedule")
    tolerated = PodFilters((FilterToleration("maintenance"),))
    assert why_nowhere({"cpu": 1000}, [_node("a", taints=(taint,))], tolerated) is None
    assert why_nowhere({"cpu": 1000}, []) == "no node holds one pod: no node to place it on"


def test_a_jobset_pod_set_that_fits_no_node(run: Run, lab: Path, tmp_path: Path) -> None:
    """K6: pod set b asks for more cpu per pod than any host has; a fits and is left alone."""
    jobs = [{"name": "a", "workers": 1}, {"name": "b", "workers": 2, "resources": {"cpu": "120"}}]
    doc = run_doc("h200-train", resources={"nvidia.com/gpu": 8}, workload="jobset", jobs=jobs)
    del doc["workers"], doc["launcher"]
    assert _topology(lab, doc) == (
        False,
        "pod set a: eastus/ib-a holds 1; pod set b: no tau.azure.com/network-domain holds its 2 pods "
        f"beside the pod sets before it; {CPU}",
    )
    assert _simulated(run, lab, tmp_path, doc) == (
        "pending",
        f"topology: pod set b: no tau.azure.com/network-domain domain holds 2 pods; {CPU}; Kueue: topology "
        '"taugrid-gpu-topology" doesn\'t allow to fit any of 2 pod(s). Total nodes: 4; excluded: resource '
        '"cpu": 4',
    )


def test_a_node_full_of_pods_by_its_pods_allocatable() -> None:
    """Kueue counts one `pods` per pod where a node lists it; a node that does not, sets no limit."""
    full = HostOffer("a", True, {"cpu": 8_000, "pods": 0})
    unlisted = HostOffer("b", True, {"cpu": 8_000})
    assert why_nowhere({"cpu": 1000}, [full]) == (
        "no node holds one pod: pods 1 per pod is above every node's allocatable (at most 0)"
    )
    assert why_nowhere({"cpu": 1000}, [full, unlisted]) is None
