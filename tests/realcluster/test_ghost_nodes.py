"""G3 on the real API server (issue 31): with the example's ValidatingAdmissionPolicy and binding
applied, creating a Node that carries app.kubernetes.io/managed-by: taugen is refused — by a
plain create and by the server-side apply of a partial Node whose Node is gone — while a Node
the kubelet registers is created, and the tree's partial Node then labels it."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from taugen.context.session import open_project
from tests.conftest import REPO
from tests.realcluster.apply import live
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.exercise import node_of, reset
from tests.realcluster.kube import Kube, Object, wait_for

pytestmark = pytest.mark.realcluster
TREE = REPO / "out" / "eastus-prod"
GHOST = "realcluster-ghost"
REFUSAL = (
    f"nodes \"{GHOST}\" is forbidden: ValidatingAdmissionPolicy 'taugen-no-ghost-nodes' with binding "
    f"'taugen-no-ghost-nodes' denied request: Node {GHOST} is not registered: taugen labels existing "
    "Nodes only and never creates one (SPEC G3); the inventory lists a machine that left the cluster: "
    "refresh it and run taugen build"
)


def _refused(kube: Kube, node: Object) -> bool:
    """The policy compiles and binds a moment after it is written: a dry-run create tells."""
    return kube.create(node, dry_run=True).status_code == 403


def _documents(path: Any) -> list[Object]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]


def test_g3_refuses_a_ghost_node_and_lets_a_label_patch_pass(control_plane: ControlPlane) -> None:
    kube = control_plane.kube
    policy = _documents(TREE / "admission.yaml")
    partial = _documents(sorted(TREE.glob("nodes/*/nodes.yaml"))[0])[0]
    ghost = partial | {"metadata": partial["metadata"] | {"name": GHOST}}
    context = open_project(REPO / "taugen.yaml")
    facts = {n.name: n for n in context.cluster(context.pick("eastus-prod")).inventory.nodes}
    registered = node_of(facts[partial["metadata"]["name"]])
    try:
        for obj in policy:
            Kube.expect(kube.apply(obj))
        wait_for("the G3 policy in force", lambda: _refused(kube, ghost), 60, control_plane.alive)
        for answer in (kube.create(ghost), kube.apply(ghost)):  # apply of a missing Node creates it
            status = answer.json()
            assert (answer.status_code, status["reason"], status["message"]) == (403, "Forbidden", REFUSAL)
        assert kube.get(ghost) is None
        Kube.expect(kube.create(registered))  # the kubelet's Node: no taugen label
        labelled = Kube.expect(kube.apply(partial))
        assert (
            labelled["metadata"]["labels"] == registered["metadata"]["labels"] | partial["metadata"]["labels"]
        )
        patch = {"metadata": {"labels": {"tau.azure.com/realcluster": "patched"}}}
        answer = kube.http.patch(
            kube.object_path(partial), json=patch, headers={"Content-Type": "application/merge-patch+json"}
        )
        assert Kube.expect(answer)["metadata"]["labels"]["tau.azure.com/realcluster"] == "patched"
    finally:
        reset(control_plane, [*policy, registered])
    assert live(kube, [*policy, registered]) == {}
