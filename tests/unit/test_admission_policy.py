"""G3: the ValidatingAdmissionPolicy that keeps a partial Node from creating a Node, evaluated as
the API server evaluates it (matchConstraints, then each validation's CEL with cel-python) on
admission requests; present in every cluster's core, whatever its scheduler and node labels;
valid for the real kubeconform."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import celpy
import pytest
import yaml
from celpy.adapter import json_to_cel

from taugen.compile.admission import ADMISSION_FILE, POLICY, admission_policy
from tests.support.kubeconform import kubeconform
from tests.support.tree import example_project, tree_objects
from tests.support.unit import run_build

REPO = Path(__file__).resolve().parents[2]
MANAGED = {"app.kubernetes.io/managed-by": "taugen"}
KUBELET = {
    "kubernetes.io/hostname": "h-0",
    "kubernetes.io/os": "linux",
    "node.kubernetes.io/instance-type": "x",
}


def _policy() -> dict[str, Any]:
    policy, binding = (m.obj for m in admission_policy())
    assert binding["spec"] == {"policyName": POLICY, "validationActions": ["Deny"]}
    return policy


def admit(operation: str, node: dict[str, Any], old: dict[str, Any] | None = None) -> str | None:
    """None when the request passes, else the denial message: the policy applies when a
    resourceRule matches (group, version, resource, operation), then every validation must hold."""
    spec = _policy()["spec"]
    matched = any(
        "" in r["apiGroups"]
        and "v1" in r["apiVersions"]
        and "nodes" in r["resources"]
        and operation in r["operations"]
        for r in spec["matchConstraints"]["resourceRules"]
    )
    if not matched:
        return None
    env = celpy.Environment()
    activation = {
        "object": json_to_cel(node),
        "oldObject": json_to_cel(old),
        "request": json_to_cel(
            {"operation": operation, "kind": {"group": "", "version": "v1", "kind": "Node"}}
        ),
    }
    for check in spec["validations"]:
        if not env.program(env.compile(check["expression"])).evaluate(activation):
            return str(env.program(env.compile(check["messageExpression"])).evaluate(activation))
    return None


def _node(labels: dict[str, str] | None, **extra: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "h-0"}
    if labels is not None:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta, **extra}


def test_create_of_a_taugen_partial_node_is_refused() -> None:
    partial = _node({**MANAGED, "tau.azure.com/gpu-class": "h200-141gb"})
    message = admit("CREATE", partial)
    assert message is not None and message.startswith("Node h-0 is not registered")
    assert admit("CREATE", _node(MANAGED)) is not None


@pytest.mark.parametrize(
    "labels",
    [KUBELET, None, {}, {"app.kubernetes.io/managed-by": "karpenter"}],
    ids=["kubelet", "no-labels", "empty-labels", "other-manager"],
)
def test_create_by_the_kubelet_or_anyone_else_passes(labels: dict[str, str] | None) -> None:
    assert admit("CREATE", _node(labels, spec={"providerID": "azure:///x"})) is None


def test_update_of_an_existing_node_passes_even_with_taugens_label() -> None:
    """Server-side apply of a partial Node onto a registered one is an UPDATE (or PATCH) of it."""
    old = _node(KUBELET)
    assert admit("UPDATE", _node({**KUBELET, **MANAGED}), old) is None
    assert admit("DELETE", _node(MANAGED)) is None


def _trees(tmp_path: Path) -> list[Path]:
    """The example's clusters (Kueue and KAI) on both node-label backends."""
    for backend in ("node", "nfd"):
        (tmp_path / backend).mkdir()
        run_build(example_project(tmp_path / backend, backend))
    folders = (p for backend in ("node", "nfd") for p in (tmp_path / backend / "out").iterdir())
    return sorted(p for p in folders if not p.name.startswith("_"))  # not G6's _argocd, _flux


def test_every_core_holds_the_policy_before_its_nodes_and_kubeconform_accepts_it(tmp_path: Path) -> None:
    trees = _trees(tmp_path)
    assert len(trees) == 12  # the example's six clusters, each with both node-label backends
    for folder in trees:
        found = {o["kind"]: o for file, o in tree_objects(folder) if file == ADMISSION_FILE}
        assert sorted(found) == ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"], folder
        for obj in found.values():
            assert obj["apiVersion"] == "admissionregistration.k8s.io/v1"
            assert obj["metadata"]["name"] == POLICY
            assert obj["metadata"]["labels"] == MANAGED
            assert obj["metadata"]["annotations"] == {"argocd.argoproj.io/sync-wave": "-3"}
        assert found["ValidatingAdmissionPolicy"]["spec"] == _policy()["spec"]
        listed = yaml.safe_load((folder / "kustomization.yaml").read_text())["resources"]
        assert ADMISSION_FILE in listed
    done = kubeconform(trees, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Errors: 0" in done.stdout and "Invalid: 0" in done.stdout


def test_kubeconform_refuses_a_policy_with_an_unknown_field(tmp_path: Path) -> None:
    """The extra schemas are strict: the check above is not vacuous."""
    bad = tmp_path / "bad"
    bad.mkdir()
    text = (REPO / "out" / "eastus-prod" / ADMISSION_FILE).read_text()
    (bad / ADMISSION_FILE).write_text(
        text.replace("  failurePolicy: Fail\n", "  failurePolicy: Fail\n  failurPolicy: Fail\n")
    )
    done = kubeconform([bad], tmp_path)
    assert done.returncode == 1 and "failurPolicy" in done.stdout, done.stdout
