"""Issue 24: simulate filters nodes as Kueue v0.19.2's TAS does (tas_flavor_snapshot.go,
FindFeasibleNodes): a node's NoSchedule/NoExecute taints against the pod's tolerations (the
gpuNodeTaints render writes, R24/R39) plus the flavor's, then the run's required node
affinity; an excluded node is counted in the failure message."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.commands.preflight.check import preflight
from taugen.engines.admission.engine import simulate
from taugen.engines.admission.model import RunResult
from taugen.engines.placement.tree import FilterTaint
from taugen.models.node_filters import NodeRequirement
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT, context_of, run_doc
from tests.unit.simulate.engine_helpers import cluster, node
from tests.unit.simulate.engine_helpers import run as engine_run

SKU = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}  # the default gpuNodeTaints (R24)
MAINTENANCE = {"key": "maintenance", "value": "true", "effect": "NoSchedule"}
H200 = "taugrid-h200-141gb"


def _lab(dest: Path, extra: dict[str, list[dict[str, str]]]) -> Path:
    """The lab project, every H200 node tainted sku=gpu:NoSchedule, some with `extra` taints."""
    shutil.copytree(PROJECT, dest)
    inventory = yaml.safe_load((dest / "inventory.yaml").read_text())
    for raw in inventory["nodes"]:
        if raw["name"].startswith("h200-"):
            raw["taints"] = [SKU, *extra.get(raw["name"], [])]
    write_yaml(dest / "inventory.yaml", inventory)
    build(BuildOptions(project_file=dest / "taugen.yaml"))
    return dest / "taugen.yaml"


def _set(tmp_path: Path, *runs: dict[str, Any]) -> Path:
    return write_yaml(tmp_path / "set.yaml", {"kind": "WorkloadSet", "runs": list(runs)})


def _run(name: str, workers: int, profile: str = "h200-train", **fields: Any) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": "2026-11-29T10:00:00Z",
        "profile": profile,
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8},
        **fields,
    }


def _answer(run: Run, project: Path, workloads: Path, *extra: Any) -> list[dict[str, Any]]:
    result = run("simulate", workloads, "-c", project, "-o", "json", *extra)
    assert result.exit_code == 0, result.output
    return [
        {k: r[k] for k in ("name", "status", "reason", "hosts") if k in r}
        for r in json.loads(result.stdout)["runs"]
    ]


@pytest.fixture(scope="module")
def maintained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """h200-a0 (fabric ib-a) also carries a maintenance taint no run tolerates."""
    return _lab(tmp_path_factory.mktemp("maintained") / "lab", {"h200-a0": [MAINTENANCE]})


def test_an_untolerated_taint_excludes_the_node(run: Run, maintained: Path, tmp_path: Path) -> None:
    """ib-a has three Ready hosts, but h200-a0's maintenance taint leaves two; ib-b has two:
    no fabric holds three ranks, and Kueue's message counts the excluded node."""
    answer = _answer(run, maintained, _set(tmp_path, _run("train-3", 3)))
    assert answer == [
        {
            "name": "train-3",
            "status": "pending",
            "reason": "topology: no tau.azure.com/network-domain domain holds 3 pods: topology "
            '"taugrid-gpu-topology" allows to fit only 2 out of 3 pod(s). Total nodes: 5; excluded: taint '
            '"maintenance=true:NoSchedule": 1',
            "hosts": [],
        }
    ]


def test_the_gpu_taint_render_tolerates_excludes_nothing(run: Run, tmp_path: Path) -> None:
    """Every H200 node carries sku=gpu:NoSchedule, which the run tolerates (R24)."""
    project = _lab(tmp_path / "lab", {})
    answer = _answer(run, project, _set(tmp_path, _run("train-3", 3)))
    assert [(a["status"], a["hosts"]) for a in answer] == [
        ("admitted", [{"host": h, "count": 1} for h in ("h200-a0", "h200-a1", "h200-a2")])
    ]


def test_a_flavor_toleration_lets_the_run_on(run: Run, maintained: Path, tmp_path: Path) -> None:
    """Kueue appends the ResourceFlavor's spec.tolerations to the pod's (a --tree may set them)."""
    tree = tmp_path / "tree" / "lab"
    shutil.copytree(maintained.parent / "out" / "lab", tree)
    flavors = [d for d in yaml.safe_load_all((tree / "resourceflavors.yaml").read_text()) if d]
    for flavor in flavors:
        if flavor["metadata"]["name"] == H200:
            flavor["spec"]["tolerations"] = [{"key": "maintenance", "operator": "Exists"}]
    (tree / "resourceflavors.yaml").write_text(yaml.safe_dump_all(flavors))
    answer = _answer(run, maintained, _set(tmp_path, _run("train-3", 3)), "--tree", tree)
    assert [(a["status"], [h["host"] for h in a["hosts"]]) for a in answer] == [
        ("admitted", ["h200-a0", "h200-a1", "h200-a2"])
    ]


def test_required_node_affinity_keeps_the_run_off_a_node(run: Run, maintained: Path, tmp_path: Path) -> None:
    """policy.node_affinity: never on ib-b's hosts. Two pods go to a1 and a2 (a0 is tainted);
    then no node is left for a third, and each excluded node is counted by its reason."""
    away = {
        "node_affinity": [
            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": ["h200-b0", "h200-b1"]}
        ]
    }
    runs = (
        _run("pinned", 2, "h200-any", policy=away),
        _run("nowhere", 1, "h200-any", createdAt="2026-11-29T11:00:00Z", policy=away),
    )
    answer = _answer(run, maintained, _set(tmp_path, *runs))
    assert answer == [
        {
            "name": "pinned",
            "status": "admitted",
            "reason": None,
            "hosts": [{"host": "h200-a1", "count": 1}, {"host": "h200-a2", "count": 1}],
        },
        {
            "name": "nowhere",
            "status": "pending",
            "reason": 'topology: no set of hosts holds 1 pods: topology "taugrid-gpu-topology" '
            "doesn't allow to fit any of 1 pod(s). Total nodes: 5; excluded: affinity: 2, "
            'resource "nvidia.com/gpu": 2, '
            'taint "maintenance=true:NoSchedule": 1',
            "hosts": [],
        },
    ]


def test_a_lost_rank_is_never_placed_again_on_an_untolerated_node() -> None:
    """S5: the rank lost with h0 goes to the first free host the pod may use: h1's maintenance
    taint and h2's missing `pool` label (the run's node affinity) keep it off them."""
    taint = FilterTaint("maintenance", "true", "NoSchedule")
    nodes = [
        replace(node("h0"), labels={"pool": "a"}),
        replace(node("h1"), taints=(taint,), labels={"pool": "a"}),
        node("h2"),
        replace(node("h3"), labels={"pool": "a"}),
    ]
    pool = ((NodeRequirement(key="pool", operator="Exists"),),)
    lone = engine_run("lone", plan={0: "h0"}, affinity=pool)
    result = simulate(cluster(nodes, [lone], running=(), down=("h0",)))
    assert result.runs == (RunResult("team-a/lone", "admitted", "taugrid-h200", "", ("h3",), (0,)),)


def _topology(project: Path, doc: dict[str, Any]) -> tuple[bool, str]:
    (topology,) = [c for c in preflight(context_of(project, doc)).checks if c.id == "topology"]
    return topology.ok, topology.message


def test_preflight_counts_only_the_nodes_the_run_may_use(maintained: Path) -> None:
    """h200-a0's maintenance taint leaves ib-a two usable hosts (of three Ready ones)."""
    doc = run_doc("h200-train", workers=3, resources={"nvidia.com/gpu": 8})
    assert _topology(maintained, doc) == (
        False,
        "no single tau.azure.com/network-domain holds 3 ranks; the largest, eastus/ib-a, holds 2 "
        "ranks on 2 Ready nodes (1 not Ready, 1 with an untolerated taint or outside the run's node "
        "affinity, excluded): lacks 1; tau.azure.com/site eastus would hold 4, but nothing falls back "
        "to a wider level: set policy.topology to same-site to use it",
    )


def test_preflight_applies_the_runs_node_affinity(maintained: Path) -> None:
    """ib-b's two hosts are outside the affinity: ib-a's two usable hosts are the best fit."""
    away = [{"key": "kubernetes.io/hostname", "operator": "NotIn", "values": ["h200-b0", "h200-b1"]}]
    doc = run_doc("h200-train", workers=2, resources={"nvidia.com/gpu": 8}, policy={"node_affinity": away})
    assert _topology(maintained, doc) == (
        True,
        "tau.azure.com/network-domain: best domain eastus/ib-a holds 2 ranks on 2 Ready nodes (1 not "
        "Ready, 1 with an untolerated taint or outside the run's node affinity, excluded); headroom 0",
    )
