"""G4: the torchrun-host-slot is advertised by a NodeFeatureRule in every GPU cluster's core, and
simulate, preflight and report count a slot on a node only where the tree advertises it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taugen.api.nfd import NodeFeatureRule
from taugen.commands.preflight.check import preflight
from taugen.commands.report.command import ReportOptions, collect
from taugen.compile.slot import SLOT, SLOT_FILE, SLOT_RULE, no_slot_reason
from taugen.context.tree import CompiledTree
from taugen.engines.admission.project import SimulateOptions, run_simulation
from tests.support.runs import build_lab, context_of, run_doc
from tests.support.tree import tree_objects

REPO = Path(__file__).resolve().parents[2]
WORKLOADS = REPO / "tests" / "cases" / "simulate" / "lab.yaml"
RULE = {
    "name": SLOT_RULE,
    "extendedResources": {SLOT: "1"},
    "matchFeatures": [
        {
            "feature": "pci.device",
            "matchExpressions": {
                "vendor": {"op": "In", "value": ["10de"]},  # NVIDIA
                "class": {"op": "In", "value": ["0300", "0302"]},  # VGA, 3D controller
            },
        }
    ],
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="module")
def old_lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lab built, then its slot rule removed, as in a tree built before G4."""
    project = build_lab(tmp_path_factory.mktemp("old-lab"))
    (folder,) = (project.parent / "out").iterdir()
    (folder / SLOT_FILE).unlink()
    kustomization = folder / "kustomization.yaml"
    kustomization.write_text(kustomization.read_text().replace(f"- {SLOT_FILE}\n", ""))
    return project


@pytest.mark.parametrize("cluster", ["eastus-prod", "westus3-dev", "northeurope-kai"])
def test_every_gpu_cluster_core_advertises_one_slot_per_nvidia_gpu_node(cluster: str) -> None:
    folder = REPO / "out" / cluster
    (obj,) = [o for file, o in tree_objects(folder) if file == SLOT_FILE]
    NodeFeatureRule.model_validate(obj)  # taugen's strict model of the kind (extendedResources)
    assert obj["metadata"]["name"] == SLOT_RULE and obj["spec"] == {"rules": [RULE]}
    assert obj["metadata"]["annotations"] == {
        "argocd.argoproj.io/sync-options": "SkipDryRunOnMissingResource=true",
        "argocd.argoproj.io/sync-wave": "-2",
    }
    assert SLOT_FILE in yaml.safe_load((folder / "kustomization.yaml").read_text())["resources"]
    assert CompiledTree.read(folder).advertises_slot()


def test_the_tree_reader_says_whether_the_slot_is_advertised(
    lab: Path, old_lab: Path, tmp_path: Path
) -> None:
    assert CompiledTree.read(lab.parent / "out" / "lab").advertises_slot()
    assert not CompiledTree.read(old_lab.parent / "out" / "lab").advertises_slot()
    edited = tmp_path / SLOT_FILE  # the rule kept, its resource gone
    text = (lab.parent / "out" / "lab" / SLOT_FILE).read_text()
    edited.write_text(text.replace(SLOT, "example.com/other"))
    assert not CompiledTree.read(tmp_path).advertises_slot()


def test_simulate_without_the_slot_rule_leaves_multi_node_torchrun_pending(lab: Path, old_lab: Path) -> None:
    today = run_simulation(SimulateOptions(WORKLOADS, lab))
    without = run_simulation(SimulateOptions(WORKLOADS, old_lab))
    torchrun = {r.key for r in today.source.runs if SLOT in r.per_pod and r.plan is None}
    assert torchrun and any(r.status == "admitted" for r in today.result.runs if r.key in torchrun)
    after = {r.key: r for r in without.result.runs}
    assert {(k, after[k].status, after[k].reason) for k in torchrun} == {
        (k, "pending", no_slot_reason()) for k in torchrun
    }
    assert all(SLOT not in n.allocatable for n in without.source.nodes)
    assert any(SLOT in n.allocatable for n in today.source.nodes)


def test_preflight_without_the_slot_rule_is_not_eligible(lab: Path, old_lab: Path) -> None:
    doc = run_doc("h200-train", 2, "torchrun")
    assert preflight(context_of(lab, doc)).eligible
    result = preflight(context_of(old_lab, doc))
    assert not result.eligible
    assert [(c.id, c.ok, c.message) for c in result.checks][-1] == ("slot", False, no_slot_reason())
    single = preflight(context_of(old_lab, run_doc("h200-train", 1), name="one.yaml"))
    assert single.eligible  # one rank requests no slot


def test_report_counts_slots_only_where_the_tree_advertises_them(lab: Path, old_lab: Path) -> None:
    def slots(project: Path) -> int:
        (view,) = collect(ReportOptions(project_file=project)).clusters
        return sum(site.stats.ready_slots for site in view.sites)

    assert slots(lab) > 0
    assert slots(old_lab) == 0
