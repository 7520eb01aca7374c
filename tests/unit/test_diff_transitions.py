"""`taugen diff` checks the given CRDs' transition rules (oldSelf) on every object both trees hold
(issue 20, 30: `--crd`, here the upstream Kueue CRDs): on a real diff of the example's
eastus-prod tree against an edited copy, each update the API server refuses is a `rejected` risk
naming the rule's message and where it sits."""

from __future__ import annotations

import shutil
from pathlib import Path

from taugen.engines.changes.engine import DiffOptions, diff
from taugen.validate.celrules import RuleSource
from taugen.validate.crd import load_crds
from taugen.validate.transition import Refusal, TransitionCheck
from tests.conftest import REPO, shared_crds

TREE = REPO / "out" / "eastus-prod"
EDITS = {  # file: (text in the built tree, its replacement)
    "topology.yaml": ("  - nodeLabel: tau.azure.com/site\n", "  - nodeLabel: tau.azure.com/region\n"),
    "localqueues.yaml": ("clusterQueue: taugrid\n", "clusterQueue: taugrid-b\n"),
}
FLAVOR = ("  topologyName: taugrid-gpu-topology\n", "  topologyName: taugrid-other\n")


def _trees(tmp_path: Path) -> Path:
    shutil.copytree(TREE, tmp_path / "base" / "eastus-prod")
    shutil.copytree(TREE, tmp_path / "head" / "eastus-prod")
    for name, (old, new) in {**EDITS, "resourceflavors.yaml": FLAVOR}.items():
        path = tmp_path / "head" / "eastus-prod" / name
        text = path.read_text()
        assert old in text, f"{name}: the edit no longer matches the built tree"
        path.write_text(text.replace(old, new, 1))
    return tmp_path


def test_each_refused_update_is_a_rejected_risk_naming_the_rule(tmp_path: Path) -> None:
    result = diff(DiffOptions("base", "head", cwd=_trees(tmp_path), crds=(shared_crds("kueue"),)))

    rejected = {
        (e.ident.kind, e.ident.name, r.reason) for e in result.entries for r in e.risks if r.id == "rejected"
    }
    assert rejected == {
        ("Topology", "taugrid-gpu-topology", "the CRD's rule at spec.levels: field is immutable"),
        ("LocalQueue", "taugrid", "the CRD's rule at spec.clusterQueue: field is immutable"),
        (
            "ResourceFlavor",
            "taugrid-a100-80gb",
            "the CRD's rule at spec: topologyName is immutable when topologyName is set",
        ),
    }
    assert result.crosses("rejected")


def test_without_crds_taugens_own_checks_refuse_the_same_updates(tmp_path: Path) -> None:
    # issue 30: no CRD given, the transition checks beside the models (api/rules.py) speak
    result = diff(DiffOptions("base", "head", cwd=_trees(tmp_path)))

    rejected = {
        (e.ident.kind, e.ident.name, r.reason) for e in result.entries for r in e.risks if r.id == "rejected"
    }
    levels = "a Topology's levels cannot change once the object exists"
    target = "a LocalQueue's clusterQueue cannot change once the object exists"
    flavor = "topologyName cannot change: the flavor in the cluster has a topologyName"
    assert rejected == {
        ("Topology", "taugrid-gpu-topology", f"taugen's rule immutable-field at spec.levels: {levels}"),
        ("LocalQueue", "taugrid", f"taugen's rule immutable-field at spec.clusterQueue: {target}"),
        (
            "ResourceFlavor",
            "taugrid-a100-80gb",
            f"taugen's rule tas-flavor-fixed at spec.topologyName: {flavor}",
        ),
    }


def test_an_update_the_rules_allow_is_no_risk(tmp_path: Path) -> None:
    shutil.copytree(TREE, tmp_path / "base" / "eastus-prod")
    shutil.copytree(TREE, tmp_path / "head" / "eastus-prod")
    flavors = tmp_path / "head" / "eastus-prod" / "resourceflavors.yaml"
    flavors.write_text(flavors.read_text().replace("    value: gpu\n", "    value: gpu-2\n", 1))  # a taint

    result = diff(DiffOptions("base", "head", cwd=tmp_path, crds=(shared_crds("kueue"),)))
    own = diff(DiffOptions("base", "head", cwd=tmp_path))  # taugen's own checks (issue 30)

    assert [e.headline for e in result.entries]  # the taint changed
    assert not [r for e in result.entries for r in e.risks if r.id == "rejected"]
    assert [e.headline for e in own.entries] == [e.headline for e in result.entries]
    assert not [r for e in own.entries for r in e.risks if r.id == "rejected"]


THING_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: Thing, plural: things}
  versions:
    - name: v1
      served: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties: {x: {type: array, items: {type: integer}}}
              x-kubernetes-validations:
                - {rule: "self.x.isSorted() == oldSelf.x.isSorted()", message: x stays sorted}
"""


def test_a_rule_cel_python_cannot_evaluate_is_never_passed(tmp_path: Path) -> None:
    (tmp_path / "thing.yaml").write_text(THING_CRD)
    check = TransitionCheck(RuleSource(load_crds(tmp_path / "thing.yaml")))
    old = {"apiVersion": "example.com/v1", "kind": "Thing", "spec": {"x": [1]}}
    new = {"apiVersion": "example.com/v1", "kind": "Thing", "spec": {"x": [2, 1]}}

    why = "not checked: it calls isSorted: a Kubernetes CEL extension cel-python lacks"
    rule = "self.x.isSorted() == oldSelf.x.isSorted()"
    assert check.refusals(old, new) == [Refusal(("spec",), f"x stays sorted — {why}", rule, checked=False)]
    assert check.refusals(old, old) == []  # unchanged: ratcheting, never refused
