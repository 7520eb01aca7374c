"""Issue 30: taugen's own checks of the upstream CRDs' CEL rules (Kueue v0.19.2 v1beta2, KAI
Topology v1alpha1), each with an object it refuses and one it accepts, through the core
(api/checks.py, validate/upstream.py): the rule id and where, compared whole. The same objects
go to the upstream CRDs' own rules (../shared/crds, skipped when absent): they must agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taugen.api.checks import MODELS, Key, object_checks
from taugen.api.rules import Path as Where
from taugen.core.errors import FoundProblems
from taugen.load.document import Document, fast_documents
from taugen.validate.cel import CelCheck
from taugen.validate.celrules import RuleSource
from taugen.validate.crd import load_crds
from taugen.validate.engine import validate
from taugen.validate.resources import Resource
from taugen.validate.schemas import SchemaStore
from taugen.validate.transition import TransitionCheck
from taugen.validate.upstream import Refused, findings, refusals
from tests.conftest import shared_crds
from tests.support.validate import check_files

KUEUE = "kueue.x-k8s.io/v1beta2"
KAI = "kai.scheduler/v1alpha1"


def obj(kind: str, spec: dict[str, Any], api: str = KUEUE) -> dict[str, Any]:
    return {"apiVersion": api, "kind": kind, "metadata": {"name": "x"}, "spec": spec}


def breaches(value: dict[str, Any]) -> list[tuple[str, Where]]:
    key: Key = (value["apiVersion"], value["kind"])
    return [(check.rule, at) for check in object_checks(key) for at, _ in check.breaches(value)]


def toleration(**fields: Any) -> dict[str, Any]:
    return obj("ResourceFlavor", {"tolerations": [fields]})


def resources(borrowing: bool) -> list[dict[str, Any]]:
    quota = {"name": "cpu", "nominalQuota": 8, **({"borrowingLimit": 4} if borrowing else {})}
    return [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [quota]}]}]


T0 = ("spec", "tolerations", 0)
LEVEL = "example.com/rack"
Case = tuple[dict[str, Any], list[tuple[str, Where]]]  # an object, and what is refused where
REFUSED: dict[str, Case] = {
    "tas-node-labels: none": (
        obj("ResourceFlavor", {"topologyName": "t"}),
        [("tas-node-labels", ("spec", "topologyName"))],
    ),
    "tas-node-labels: empty": (
        obj("ResourceFlavor", {"topologyName": "t", "nodeLabels": {}}),
        [("tas-node-labels", ("spec", "nodeLabels"))],
    ),
    "taint-effect": (
        obj("ResourceFlavor", {"nodeTaints": [{"key": "k", "effect": "Evict"}]}),
        [("taint-effect", ("spec", "nodeTaints", 0, "effect"))],
    ),
    "toleration-key: Equal": (
        toleration(operator="Equal", value="v"),
        [("toleration-key", (*T0, "operator"))],
    ),
    "toleration-key: no operator": (toleration(effect="NoSchedule"), [("toleration-key", T0)]),
    "toleration-operator": (
        toleration(key="k", operator="In"),
        [("toleration-operator", (*T0, "operator"))],
    ),
    "toleration-value": (
        toleration(key="k", operator="Exists", value="v"),
        [("toleration-value", (*T0, "value"))],
    ),
    "toleration-seconds: NoSchedule": (
        toleration(key="k", operator="Equal", value="v", effect="NoSchedule", tolerationSeconds=5),
        [("toleration-seconds", (*T0, "tolerationSeconds"))],
    ),
    "toleration-seconds: no effect": (
        toleration(key="k", operator="Exists", tolerationSeconds=5),
        [("toleration-seconds", (*T0, "tolerationSeconds"))],
    ),
    "toleration-effect": (
        toleration(key="k", operator="Exists", effect="NoExecuteNow"),
        [("toleration-effect", (*T0, "effect"))],
    ),
    "borrowing-cohort": (
        obj("ClusterQueue", {"resourceGroups": resources(borrowing=True)}),
        [("borrowing-cohort", ("spec", "resourceGroups", 0, "flavors", 0, "resources", 0, "borrowingLimit"))],
    ),
    "fungibility-preference: defaults": (
        obj("ClusterQueue", {"flavorFungibility": {"preference": "BorrowingOverPreemption"}}),
        [("fungibility-preference", ("spec", "flavorFungibility", "preference"))],
    ),
    "fungibility-preference: one": (
        obj(
            "ClusterQueue",
            {
                "flavorFungibility": {
                    "whenCanBorrow": "TryNextFlavor",
                    "whenCanPreempt": "MayStopSearch",
                    "preference": "PreemptionOverBorrowing",
                }
            },
        ),
        [("fungibility-preference", ("spec", "flavorFungibility", "preference"))],
    ),
    "preemption-borrow: given": (
        obj(
            "ClusterQueue",
            {
                "preemption": {
                    "reclaimWithinCohort": "Never",
                    "borrowWithinCohort": {"policy": "LowerPriority"},
                }
            },
        ),
        [("preemption-borrow", ("spec", "preemption", "borrowWithinCohort", "policy"))],
    ),
    "preemption-borrow: defaulted": (
        obj("ClusterQueue", {"preemption": {"borrowWithinCohort": {"policy": "LowerPriority"}}}),
        [("preemption-borrow", ("spec", "preemption", "borrowWithinCohort", "policy"))],
    ),
    "unique-levels: kueue": (
        obj("Topology", {"levels": [{"nodeLabel": LEVEL}, {"nodeLabel": "b"}, {"nodeLabel": LEVEL}]}),
        [("unique-levels", ("spec", "levels", 2, "nodeLabel"))],
    ),
    "unique-levels: kai": (
        obj("Topology", {"levels": [{"nodeLabel": LEVEL}, {"nodeLabel": LEVEL, "alias": "r"}]}, KAI),
        [("unique-levels", ("spec", "levels", 1, "nodeLabel"))],
    ),
    "cluster-source: both": (
        obj(
            "MultiKueueCluster",
            {"clusterSource": {"kubeConfig": {"location": "s"}, "clusterProfileRef": {"name": "w"}}},
        ),
        [("cluster-source", ("spec", "clusterSource"))],
    ),
    "cluster-source: neither": (
        obj("MultiKueueCluster", {"clusterSource": {}}),
        [("cluster-source", ("spec", "clusterSource"))],
    ),
    "unique-clusters": (
        obj("MultiKueueConfig", {"clusters": ["a", "b", "a", "a"]}),
        [("unique-clusters", ("spec", "clusters", 2)), ("unique-clusters", ("spec", "clusters", 3))],
    ),
}
ACCEPTED: dict[str, dict[str, Any]] = {
    "tas-node-labels": obj("ResourceFlavor", {"topologyName": "t", "nodeLabels": {"a": "b"}}),
    "taint-effect": obj(
        "ResourceFlavor",
        {"nodeTaints": [{"key": "k", "effect": e} for e in ("NoSchedule", "PreferNoSchedule")]},
    ),
    "toleration: every taint": toleration(operator="Exists"),
    "toleration: Equal": toleration(key="k", operator="Equal", value="v", effect="NoSchedule"),
    "toleration: operator left to its default": toleration(key="k", value="v"),
    "toleration: Exists with seconds": toleration(
        key="k", operator="Exists", effect="NoExecute", tolerationSeconds=5
    ),
    "borrowing-cohort": obj("ClusterQueue", {"cohortName": "c", "resourceGroups": resources(borrowing=True)}),
    "no borrowing limit": obj("ClusterQueue", {"resourceGroups": resources(borrowing=False)}),
    "fungibility-preference": obj(
        "ClusterQueue",
        {
            "flavorFungibility": {
                "whenCanBorrow": "TryNextFlavor",
                "whenCanPreempt": "TryNextFlavor",
                "preference": "BorrowingOverPreemption",
            }
        },
    ),
    "fungibility without preference": obj(
        "ClusterQueue", {"flavorFungibility": {"whenCanBorrow": "MayStopSearch"}}
    ),
    "preemption-borrow: reclaim Any": obj(
        "ClusterQueue",
        {"preemption": {"reclaimWithinCohort": "Any", "borrowWithinCohort": {"policy": "LowerPriority"}}},
    ),
    "preemption-borrow: Never and Never": obj(
        "ClusterQueue", {"preemption": {"reclaimWithinCohort": "Never", "borrowWithinCohort": {}}}
    ),
    "unique-levels": obj(
        "Topology", {"levels": [{"nodeLabel": LEVEL}, {"nodeLabel": "kubernetes.io/hostname"}]}
    ),
    "unique-levels: kai": obj("Topology", {"levels": [{"nodeLabel": LEVEL, "alias": "r"}]}, KAI),
    "cluster-source": obj("MultiKueueCluster", {"clusterSource": {"clusterProfileRef": {"name": "w"}}}),
    "unique-clusters": obj("MultiKueueConfig", {"clusters": ["a", "b"]}),
    # ill-typed values are the schema's to report, never a second finding
    "tolerations not a list": obj("ResourceFlavor", {"tolerations": {"key": "k"}}),
    "operator not a string": toleration(operator=5),
    "levels not a list": obj("Topology", {"levels": "rack"}),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_each_check_refuses_what_the_upstream_rule_refuses(name: str) -> None:
    value, expected = REFUSED[name]
    assert breaches(value) == expected


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_each_check_accepts_what_the_upstream_rule_accepts(name: str) -> None:
    assert breaches(ACCEPTED[name]) == []


def test_every_check_refuses_something_here() -> None:
    ids = {check.rule for model in MODELS.values() for check in model.checks}
    assert {rule for _, found in REFUSED.values() for rule, _ in found} == ids


FLAVOR = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: x}
spec:
  tolerations:
    - key: k
      operator: Exists
      value: v
"""
# A CRD the team wrote for this test: ResourceFlavor's kind, its own (empty) rules.
FLAVOR_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: resourceflavors.kueue.x-k8s.io}
spec:
  group: kueue.x-k8s.io
  scope: Cluster
  names: {kind: ResourceFlavor, plural: resourceflavors}
  versions:
    - name: v1beta2
      served: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""


def _resources(path: Path) -> list[Resource]:
    return [Resource(d) for d in fast_documents(path, path.read_text())]


def test_a_finding_is_at_the_offending_value(tmp_path: Path) -> None:
    path = tmp_path / "flavor.yaml"
    path.write_text(FLAVOR)

    found = [(f.problem.line, f.problem.col, f.problem.rule) for f in findings(_resources(path), frozenset())]

    assert found == [(8, 14, "toleration-value")]


def test_a_kind_whose_crd_is_given_is_left_to_the_crd(tmp_path: Path) -> None:
    (tmp_path / "flavor.yaml").write_text(FLAVOR)
    (tmp_path / "crd.yaml").write_text(FLAVOR_CRD)
    resources = _resources(tmp_path / "flavor.yaml")

    given = validate(resources, SchemaStore(crds=(tmp_path / "crd.yaml",)), 1)
    own = validate(resources, SchemaStore(), 1)

    assert SchemaStore(crds=(tmp_path / "crd.yaml",)).rules.given_kinds() == {(KUEUE, "ResourceFlavor")}
    assert [f.problem.rule for f in given.findings] == []
    assert "toleration-value" in [f.problem.rule for f in own.findings]


TOPOLOGY = obj("Topology", {"levels": [{"nodeLabel": LEVEL}, {"nodeLabel": "kubernetes.io/hostname"}]})
CHANGED: dict[str, tuple[dict[str, Any], dict[str, Any], list[tuple[str, Where]]]] = {
    "LocalQueue clusterQueue": (
        obj("LocalQueue", {"clusterQueue": "a"}),
        obj("LocalQueue", {"clusterQueue": "b"}),
        [("immutable-field", ("spec", "clusterQueue"))],
    ),
    "AdmissionCheck controllerName": (
        obj("AdmissionCheck", {"controllerName": "a"}),
        obj("AdmissionCheck", {"controllerName": "b"}),
        [("immutable-field", ("spec", "controllerName"))],
    ),
    "Topology levels": (
        TOPOLOGY,
        obj("Topology", {"levels": [{"nodeLabel": "kubernetes.io/hostname"}]}),
        [("immutable-field", ("spec", "levels"))],
    ),
    "KAI Topology node labels": (
        obj("Topology", {"levels": [{"nodeLabel": LEVEL, "alias": "r"}]}, KAI),
        obj("Topology", {"levels": [{"nodeLabel": "b", "alias": "r"}]}, KAI),
        [("kai-level-labels", ("spec", "levels"))],
    ),
    "TAS flavor": (
        obj("ResourceFlavor", {"topologyName": "t", "nodeLabels": {"a": "b"}}),
        obj(
            "ResourceFlavor",
            {"topologyName": "u", "nodeLabels": {"a": "c"}, "tolerations": [{"operator": "Exists"}]},
        ),
        [
            ("tas-flavor-fixed", ("spec", "nodeLabels")),
            ("tas-flavor-fixed", ("spec", "tolerations")),
            ("tas-flavor-fixed", ("spec", "topologyName")),
        ],
    ),
}
ALLOWED: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "LocalQueue: clusterQueue set later": (obj("LocalQueue", {}), obj("LocalQueue", {"clusterQueue": "b"})),
    "LocalQueue: another field": (
        obj("LocalQueue", {"clusterQueue": "a"}),
        obj("LocalQueue", {"clusterQueue": "a", "stopPolicy": "Hold"}),
    ),
    "KAI Topology: an alias": (
        obj("Topology", {"levels": [{"nodeLabel": LEVEL, "alias": "r"}]}, KAI),
        obj("Topology", {"levels": [{"nodeLabel": LEVEL, "alias": "s"}]}, KAI),
    ),
    "flavor without topology": (
        obj("ResourceFlavor", {"nodeLabels": {"a": "b"}}),
        obj("ResourceFlavor", {"nodeLabels": {"a": "c"}, "topologyName": "t"}),
    ),
    "TAS flavor: its taints": (
        obj("ResourceFlavor", {"topologyName": "t", "nodeLabels": {"a": "b"}}),
        obj("ResourceFlavor", {"topologyName": "t", "nodeLabels": {"a": "b"}, "nodeTaints": []}),
    ),
    "another kind": (TOPOLOGY, {**TOPOLOGY, "apiVersion": KAI}),
}


def _refused(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Where]]:
    return [(r.rule, r.path) for r in refusals(old, new, frozenset())]


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_each_transition_check_refuses_the_update_upstream_refuses(name: str) -> None:
    old, new, expected = CHANGED[name]
    assert _refused(old, new) == expected
    assert _refused(old, old) == []  # unchanged: never refused (ratcheting)


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_each_transition_check_allows_what_upstream_allows(name: str) -> None:
    assert _refused(*ALLOWED[name]) == []


def test_every_transition_check_refuses_something_here() -> None:
    ids = {check.rule for model in MODELS.values() for check in model.change_checks}
    assert {rule for _, _, found in CHANGED.values() for rule, _ in found} == ids


def test_a_kind_whose_crd_is_given_is_left_to_its_transition_rules() -> None:
    old, new, _ = CHANGED["LocalQueue clusterQueue"]
    assert refusals(old, new, frozenset({(KUEUE, "LocalQueue")})) == []
    assert refusals(old, new, frozenset({(KUEUE, "Topology")})) == [
        Refused(
            ("spec", "clusterQueue"),
            "immutable-field",
            "a LocalQueue's clusterQueue cannot change once the object exists",
        )
    ]


ILL_TYPED = ("tolerations not a list", "operator not a string", "levels not a list")


def _upstream() -> RuleSource:
    kai = shared_crds("kai") / "kai.scheduler_topologies.yaml"
    return RuleSource({**load_crds(shared_crds("kueue")), **load_crds(kai)})


def test_the_upstream_rules_refuse_and_accept_the_same_objects() -> None:
    # The facts these checks were written from: Kueue's and KAI's own CRDs, read from ../shared.
    cel = CelCheck(_upstream())

    def refused(value: dict[str, Any]) -> bool:
        return any(cel.findings(Resource(Document(Path("x.yaml"), value))))

    assert [name for name, (value, _) in REFUSED.items() if not refused(value)] == []
    assert [name for name, value in ACCEPTED.items() if name not in ILL_TYPED and refused(value)] == []


def test_the_upstream_transition_rules_refuse_and_allow_the_same_updates() -> None:
    check = TransitionCheck(_upstream())
    assert [name for name, (old, new, _) in CHANGED.items() if not check.refusals(old, new)] == []
    assert [name for name, (old, new) in ALLOWED.items() if check.refusals(old, new)] == []


BUILT = Path(__file__).resolve().parent.parent / "cases" / "validate" / "valid-built-tree"


def test_the_builds_gate_refuses_by_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    files = {p.name: p.read_bytes() for p in BUILT.glob("*.yaml") if p.name != "expected.yaml"}
    flavors = files["resourceflavors.yaml"].decode()
    assert flavors.count("- effect: NoSchedule\n") == 1, "the built tree changed"
    files["resourceflavors.yaml"] = flavors.replace("- effect: NoSchedule\n", "- effect: Evict\n").encode()
    line = flavors[: flavors.index("- effect: NoSchedule")].count("\n") + 1

    with pytest.raises(FoundProblems) as caught:
        check_files(tmp_path / "out", {"c1": files})

    wanted = f"out/c1/resourceflavors.yaml:{line}:13: error: ResourceFlavor/taugrid-h200-141gb: "
    assert [x for x in caught.value.lines if x.startswith(wanted)] == [
        f"{wanted}effect 'Evict' is not a taint effect (taint-effect)"
    ]
