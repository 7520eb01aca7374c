"""Issue 18: one reader of compiled trees; `nodeLabels: nfd` reads back as `nodeLabels: node`.

The example project built both ways gives the same simulation (on its own tree and on the
tree given with --tree), the same drift and the same report data. One difference is real:
a partial Node carries taugen's managed-by label (every object does, SPEC §4), which Argo CD
then sets on the node; nfd-master sets only the rule's labels, so that one key is left out.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from taugen.commands.drift.command import drift
from taugen.commands.drift.compare import Drift, LabelDrift
from taugen.commands.drift.report import as_json
from taugen.commands.report.command import ReportOptions, collect
from taugen.commands.report.payload import cluster_data
from taugen.compile.manifest import MANAGED_BY
from taugen.context.session import load_view
from taugen.context.tree import CompiledTree
from taugen.engines.admission.model import SimResult
from taugen.engines.admission.project import SimulateOptions, run_simulation
from taugen.engines.changes.engine import DiffOptions, diff
from tests.support.helpers import cpu_node, gpu_node, inventory, write_yaml
from tests.support.helpers import write_project as write_full_project
from tests.support.unit import run_build, write_project

WORKLOAD_SET = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "WorkloadSet",
    "runs": [
        {
            "metadata": {"name": "train", "namespace": "team-a"},
            "createdAt": "2026-11-29T10:00:00Z",
            "profile": "h200-training",
            "resources": {"nvidia.com/gpu": 8, "cpu": "90", "memory": "1600Gi"},
        }
    ],
}
REPO = Path(__file__).resolve().parents[2]
WORKLOADS = Path("examples/simulate/eastus-prod.yaml")
FORMS = ("node", "nfd")


def _example(root: Path, form: str) -> Path:
    """The repository's example project, every cluster's nodeLabels set to `form`, built."""
    root.mkdir()
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copy(REPO / "taugen.lock", root / "taugen.lock")
    yaml = YAML()
    project = yaml.load(REPO / "taugen.yaml")
    for cluster in project["clusters"]:
        cluster["nodeLabels"] = form
    yaml.dump(project, root / "taugen.yaml")
    run_build(root / "taugen.yaml")
    return root / "taugen.yaml"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("examples")
    return {form: _example(base / form, form) for form in FORMS}


def test_the_nfd_tree_holds_rules_and_the_node_tree_partial_nodes(examples: dict[str, Path]) -> None:
    kinds = {
        form: {
            line
            for p in (project.parent / "out").rglob("nodes/**/*.yaml")
            for line in p.read_text().splitlines()
        }
        for form, project in examples.items()
    }
    assert "kind: Node" in kinds["node"] and "kind: NodeFeatureRule" not in kinds["node"]
    assert "kind: NodeFeatureRule" in kinds["nfd"] and "kind: Node" not in kinds["nfd"]


@pytest.mark.parametrize("cluster", ["eastus-prod", "westus3-dev", "northeurope-kai"])
def test_both_forms_read_back_as_the_resolved_labels(examples: dict[str, Path], cluster: str) -> None:
    view = load_view(examples["node"], cluster)
    resolved = {n.name: dict(n.labels) for n in view.resolved.nodes if n.labels}
    read = {form: CompiledTree.read(p.parent / "out" / cluster).node_labels() for form, p in examples.items()}
    assert read["nfd"] == resolved
    assert read["node"] == {name: {**labels, MANAGED_BY: "taugen"} for name, labels in resolved.items()}


def _simulated(project: Path, tree: Path | None) -> SimResult:
    return run_simulation(SimulateOptions(project.parent / WORKLOADS, project, tree=tree)).result


def test_simulate_admits_the_same_runs_on_either_form(examples: dict[str, Path]) -> None:
    results = {
        (form, tree): _simulated(project, project.parent / "out" if tree else None)
        for form, project in examples.items()
        for tree in (False, True)
    }
    expected = results["node", False]
    assert any(r.status == "admitted" for r in expected.runs)
    assert all(result == expected for result in results.values())


def test_drift_is_the_same_on_either_form(examples: dict[str, Path]) -> None:
    for cluster, nodelist in (
        ("eastus-prod", "examples/eastus-prod/kubectl-nodes.yaml"),
        ("westus3-dev", "examples/westus3-dev/nodes.json"),
    ):
        found = {
            form: _without_managed_by(drift(p.parent / nodelist, p, cluster)) for form, p in examples.items()
        }
        assert found["nfd"].labels  # the live nodes lack some of taugen's labels: drift to compare
        assert as_json(found["nfd"]) == as_json(found["node"])


def _without_managed_by(found: Drift) -> Drift:
    def drop(d: LabelDrift) -> LabelDrift:
        return replace(
            d,
            missing={k: v for k, v in d.missing.items() if k != MANAGED_BY},
            extra={k: v for k, v in d.extra.items() if k != MANAGED_BY},
            different={k: v for k, v in d.different.items() if k != MANAGED_BY},
        )

    kept = (d for d in map(drop, found.labels) if d.missing or d.extra or d.different)
    return replace(found, labels=tuple(kept))


def test_the_report_shows_the_same_data_on_either_form(examples: dict[str, Path]) -> None:
    data = {
        form: [
            cluster_data(v)
            for v in collect(ReportOptions(p, workloads=p.parent / WORKLOADS, cwd=p.parent)).clusters
        ]
        for form, p in examples.items()
    }
    assert data["nfd"] == data["node"]


def test_the_reader_on_a_small_tree_of_each_form(tmp_path: Path) -> None:
    """GPU hosts that share their labels (one nfd rule for all), and a CPU node without any."""
    nodes = [gpu_node("h-0"), gpu_node("h-1"), gpu_node("h-2"), cpu_node("c-0")]
    labels = {}
    for form in FORMS:
        project = write_project(tmp_path / form, inventory(nodes), nodeLabels=form)
        run_build(project)
        tree = CompiledTree.read(tmp_path / form / "out" / "c1")
        labels[form] = tree.node_labels()
        assert tree.kueue("taugrid").queue.name == "taugrid"
        assert tree.catalog().body.cluster == "c1"
    assert labels["nfd"] is not None and set(labels["nfd"]) == {"h-0", "h-1", "h-2"}
    assert labels["node"] == {n: {**v, MANAGED_BY: "taugen"} for n, v in labels["nfd"].items()}


def test_diff_simulate_sees_no_run_move_between_the_forms(tmp_path: Path) -> None:
    """Each side's hosts are placed by that side's own node labels: Nodes or NodeFeatureRules."""
    nodes = [gpu_node(f"h-{i}") for i in range(3)]
    for form in FORMS:
        run_build(write_full_project(tmp_path / form, inventory(nodes), nodeLabels=form))  # built-in profiles
    ws = write_yaml(tmp_path / "nfd" / "ws.yaml", WORKLOAD_SET)
    found = diff(DiffOptions(str(tmp_path / "node" / "out"), "out", tmp_path / "nfd", simulate=ws))
    assert found.simulation is not None
    across = run_simulation(
        SimulateOptions(ws, tmp_path / "nfd" / "taugen.yaml", tree=tmp_path / "node" / "out")
    )
    assert [r.status for r in across.result.runs] == ["admitted"]  # placed by the node side's labels
    assert (found.simulation.runs, found.simulation.impacts) == (1, ())


def test_a_tree_without_node_manifests_has_no_node_labels(tmp_path: Path) -> None:
    assert CompiledTree.read(tmp_path).node_labels() is None
    (tmp_path / "nodes").mkdir()
    assert CompiledTree.read(tmp_path).node_labels() is None
