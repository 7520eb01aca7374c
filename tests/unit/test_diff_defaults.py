"""Issue 31: what a cluster adds to an applied object (measured on the real API server and Kueue:
tests/realcluster/test_trees.py) is no change to `taugen diff`; the same field at another value is."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from taugen.engines.changes.normalize import normal
from tests.conftest import REPO

QUEUES = REPO / "out" / "eastus-prod" / "clusterqueue.yaml"


def _queue() -> dict[str, Any]:
    return next(d for d in yaml.safe_load_all(QUEUES.read_text()) if d["kind"] == "ClusterQueue")


def _read_back(obj: dict[str, Any]) -> dict[str, Any]:
    """The object as `kubectl get -o yaml` gives it after Argo CD applied it and Kueue ran."""
    live = copy.deepcopy(obj)
    live["metadata"] |= {
        "uid": "0d1e", "resourceVersion": "812", "generation": 1,
        "creationTimestamp": "2026-12-01T20:00:00Z", "managedFields": [{"manager": "taugen"}],
        "finalizers": ["kueue.x-k8s.io/resource-in-use"],
    }  # fmt: skip
    spec = live["spec"]
    spec.setdefault("flavorFungibility", {}).update(
        whenCanBorrow="MayStopSearch", whenCanPreempt="TryNextFlavor"
    )
    spec.setdefault("stopPolicy", "None")
    live["status"] = {"pendingWorkloads": 0, "conditions": [{"type": "Active", "status": "True"}]}
    return live


def test_what_the_cluster_adds_is_no_change() -> None:
    queue = _queue()
    assert normal(_read_back(queue)) == normal(queue)


def test_a_field_at_another_value_is_a_change() -> None:
    queue = _queue()
    live = _read_back(queue)
    live["spec"]["stopPolicy"] = "Hold"
    live["metadata"]["finalizers"].append("example.com/keep")
    assert normal(live) != normal(queue)
    assert normal(live)["spec"]["stopPolicy"] == "Hold"
    assert normal(live)["metadata"]["finalizers"] == frozenset({"example.com/keep"})


def test_the_example_tree_reads_back_unchanged(tmp_path: Path) -> None:
    # every object of the example's core, with what the server adds to each kind, diffs as equal
    for path in sorted((REPO / "out" / "eastus-prod").glob("*.yaml")):
        for obj in (
            d for d in yaml.safe_load_all(path.read_text()) if d and d.get("kind") != "Kustomization"
        ):
            live = copy.deepcopy(obj)
            live.setdefault("metadata", {})["resourceVersion"] = "1"
            live["status"] = {}
            if obj["kind"] == "PriorityClass":
                live.pop("globalDefault", None)
            assert normal(live) == normal(obj), (path.name, obj["metadata"]["name"])
