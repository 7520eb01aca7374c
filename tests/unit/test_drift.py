"""`taugen drift` (issue 11): the live cluster against the compiled tree (R29) and the inventory."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.drift.command import drift
from taugen.commands.drift.compare import Drift, GpuDrift, LabelDrift
from taugen.commands.drift.report import as_json, as_text
from taugen.context.tree import CompiledTree
from tests.support.helpers import add_profile
from tests.support.unit import problems_of
from tests.support.views import CLUSTERS, PROJECT, SYNCED, built_copy

Mutation = Callable[[dict[str, Any]], None]
SYNCED_DOC: dict[str, Any] = yaml.safe_load(SYNCED.read_text())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_copy(tmp_path_factory.mktemp("drift"))


def _node(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in doc["items"] if i["metadata"]["name"] == name)


def _live(tmp_path: Path, mutate: Mutation) -> Path:
    doc = copy.deepcopy(SYNCED_DOC)
    mutate(doc)
    path = tmp_path / "live.json"
    path.write_text(json.dumps(doc))
    return path


def _drift(project: Path, tmp_path: Path, cluster: str, mutate: Mutation) -> Drift:
    return drift(_live(tmp_path, mutate), project, cluster)


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_a_synced_cluster_has_no_drift(project: Path, tmp_path: Path, cluster: str) -> None:
    found = _drift(project, tmp_path, cluster, lambda doc: None)
    assert found == Drift(cluster, (), (), (), ())
    assert (found.drifted, as_text(found)) == (False, f"cluster {cluster}: no drift\n")


def _labels_of(doc: dict[str, Any], name: str) -> dict[str, str]:
    labels: dict[str, str] = _node(doc, name)["metadata"]["labels"]
    return labels


def _label_drift(doc: dict[str, Any]) -> None:
    del _labels_of(doc, "h200-0")["tau.azure.com/gpu-class"]  # missing
    _labels_of(doc, "h200-1")["tau.azure.com/network-domain"] = "fab-9"  # different
    _labels_of(doc, "a100-0")["tau.azure.com/infiniband"] = "true"  # extra
    _labels_of(doc, "cpu-0")["kueue.azure.com/gpu-series"] = "nd-h200-v5"  # extra, on a node the tree skips


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_label_drift_missing_different_and_extra(project: Path, tmp_path: Path, cluster: str) -> None:
    """§1.2: labels under taugen's prefixes on a node are outputs; any difference is drift."""
    found = _drift(project, tmp_path, cluster, _label_drift)
    assert found == Drift(
        cluster,
        (
            LabelDrift("a100-0", {}, {"tau.azure.com/infiniband": "true"}, {}),
            LabelDrift("cpu-0", {}, {"kueue.azure.com/gpu-series": "nd-h200-v5"}, {}),
            LabelDrift("h200-0", {"tau.azure.com/gpu-class": "h200-141gb"}, {}, {}),
            LabelDrift("h200-1", {}, {}, {"tau.azure.com/network-domain": ("fab-1", "fab-9")}),
        ),
        (),
        (),
        (),
    )
    assert as_text(found).splitlines()[1:5] == [
        "labels   a100-0: tau.azure.com/infiniband=true on the node, not in the tree",
        "labels   cpu-0: kueue.azure.com/gpu-series=nd-h200-v5 on the node, not in the tree",
        "labels   h200-0: tau.azure.com/gpu-class=h200-141gb missing on the node",
        "labels   h200-1: tau.azure.com/network-domain is 'fab-9' on the node, the tree says 'fab-1'",
    ]


def _membership_and_capacity(doc: dict[str, Any]) -> None:
    stray = copy.deepcopy(_node(doc, "cpu-0"))
    stray["metadata"]["name"] = "stray-0"
    doc["items"].append(stray)  # in the cluster, not in the inventory
    doc["items"].remove(_node(doc, "gb200-0"))  # in the inventory, not in the cluster
    _node(doc, "h200-0")["status"]["allocatable"]["nvidia.com/gpu"] = "4"  # capacity differs


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_membership_and_gpu_capacity_drift(project: Path, tmp_path: Path, cluster: str) -> None:
    """R26 sums the inventory's GPUs: a cluster that disagrees is drift, in JSON for automation."""
    found = _drift(project, tmp_path, cluster, _membership_and_capacity)
    assert json.loads(as_json(found)) == {
        "cluster": cluster,
        "drift": True,
        "labels": [],
        "notInInventory": ["stray-0"],
        "notInCluster": ["gb200-0"],
        "gpuCapacity": [{"node": "h200-0", "inventory": 8, "live": 4}],
    }
    assert found.gpu_capacity == (GpuDrift("h200-0", 8, 4),)


def test_a_stale_tree_is_a_warning(project: Path, tmp_path: Path) -> None:
    """R32's digest: the tree was compiled from other inputs; drift still compares, and says so."""
    stale = built_copy(tmp_path)
    add_profile(stale)
    found = _drift(stale, tmp_path, "native", lambda doc: None)
    assert [(w.rule, w.severity) for w in found.warnings] == [("R32", "warning")]
    assert not found.drifted


def test_an_unbuilt_cluster_is_refused() -> None:
    """No tree to compare with: exit 2 with the catalog's path (the fixture is never built)."""
    (problem,) = problems_of(lambda: drift(SYNCED, PROJECT, "native"))
    assert (problem.rule, problem.message) == ("R32", "no profile catalog: the cluster is not built")


NAMES = ["a", "b"]


def test_tree_labels_read_nfd_rules(tmp_path: Path) -> None:
    """A cluster with nodeLabels: nfd writes NodeFeatureRules: their labels, per matched node."""
    rule = {
        "apiVersion": "nfd.k8s-sigs.io/v1alpha1",
        "kind": "NodeFeatureRule",
        "metadata": {"name": "taugen-labels-h200-141gb"},
        "spec": {
            "rules": [
                {
                    "name": "taugen-0",
                    "labels": {"tau.azure.com/gpu-class": "h200-141gb"},
                    "matchFeatures": [
                        {
                            "feature": "system.name",
                            "matchExpressions": {"nodename": {"op": "In", "value": ["a", "b"]}},
                        }
                    ],
                }
            ]
        },
    }
    (tmp_path / "nodes").mkdir()
    (tmp_path / "nodes" / "h200-141gb.yaml").write_text(yaml.safe_dump(rule))
    assert CompiledTree.read(tmp_path).node_labels() == {
        "a": {"tau.azure.com/gpu-class": "h200-141gb"},
        "b": {"tau.azure.com/gpu-class": "h200-141gb"},
    }
