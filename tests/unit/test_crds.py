"""Every object taugen writes is valid against the upstream Kueue CRDs (SPEC §3, Kueue v0.19.2).

The CRDs live in the workspace's shared folder, beside this repository: a clone of the
repository alone has none, and the whole module is skipped.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator, FormatChecker

from taugen.commands.build import BuildOptions, build
from tests.support.crd import (
    OBJECT_META,
    CrdVersion,
    load_crds,
    object_schema,
    strict_schema,
    validation_errors,
)

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CRDS = SHARED / "crds"
KUEUE_CRDS = CRDS / "kueue"
MIXED_FLEET = SHARED / "acceptance" / "cases" / "mixed-fleet"
KUEUE_GROUP = "kueue.x-k8s.io"
# What the Kueue backend writes (R21-R25, R28): each must be found and checked.
KUEUE_KINDS = {"WorkloadPriorityClass", "Topology", "ResourceFlavor", "ClusterQueue", "LocalQueue"}

if not KUEUE_CRDS.is_dir():
    pytest.skip(
        f"upstream Kueue CRDs not found at {KUEUE_CRDS} (only the full workspace has ../shared)",
        allow_module_level=True,
    )

Found = list[tuple[str, dict[str, Any]]]  # (file relative to the tree's root, object)


@pytest.fixture(scope="module")
def crds() -> dict[tuple[str, str], CrdVersion]:
    found = load_crds(KUEUE_CRDS)
    assert {kind for _, kind in found} >= KUEUE_KINDS, f"{KUEUE_CRDS} lacks some Kueue CRDs"
    return found


@pytest.fixture(scope="module")
def mixed_fleet_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (MIXED_FLEET / "taugen.yaml").is_file():
        pytest.skip(f"acceptance case {MIXED_FLEET} not present")
    root = tmp_path_factory.mktemp("mixed-fleet")
    for source in MIXED_FLEET.iterdir():
        if source.is_file():
            shutil.copyfile(source, root / source.name)  # the shared files are read-only
    build(BuildOptions(project_file=root / "taugen.yaml"))
    return root / "out"


def objects(out: Path) -> Found:
    """Every object in every manifest under out/ (kustomization files are not objects)."""
    found: Found = []
    for path in sorted(out.rglob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        rel = path.relative_to(out).as_posix()
        found += [(rel, doc) for doc in yaml.safe_load_all(path.read_text()) if doc is not None]
    return found


def crd_errors(crds: dict[tuple[str, str], CrdVersion], found: Found) -> Iterator[str]:
    for rel, obj in found:
        what = f"{rel}: {obj.get('kind')}/{obj.get('metadata', {}).get('name')}"
        key = (str(obj.get("apiVersion")), str(obj.get("kind")))
        crd = crds.get(key)
        if crd is None:
            if key[0].split("/")[0] == KUEUE_GROUP:
                yield f"{what}: no Kueue CRD serves {key[0]} {key[1]}"
            continue
        if not crd.served:
            yield f"{what}: {crd.api_version} is not served by the CRD"
        yield from (f"{what}: {e}" for e in validation_errors(object_schema(crd), obj))


def assert_valid(crds: dict[tuple[str, str], CrdVersion], found: Found) -> None:
    kinds = {obj["kind"] for _, obj in found if str(obj.get("apiVersion", "")).startswith(KUEUE_GROUP)}
    # M2: a MultiKueue manager with no GPU node of its own has no Topology
    expected = KUEUE_KINDS - {"Topology"} if "MultiKueueConfig" in kinds else KUEUE_KINDS
    assert kinds >= expected, f"the tree lacks Kueue kinds {sorted(expected - kinds)}"
    errors = list(crd_errors(crds, found))
    assert not errors, "objects the Kueue CRDs reject:\n" + "\n".join(errors)


def committed_trees() -> list[Path]:
    """The committed trees of the example's Kueue clusters (a `scheduler: kai` one holds no Kueue object)."""
    clusters = yaml.safe_load((REPO / "taugen.yaml").read_text())["clusters"]
    kueue = {c["name"] for c in clusters if c.get("scheduler", "kueue") == "kueue"}
    out = REPO / "out"
    return sorted(p for p in out.iterdir() if p.is_dir() and p.name in kueue) if out.is_dir() else []


@pytest.mark.parametrize("tree", committed_trees(), ids=lambda p: p.name)
def test_committed_tree_is_valid_against_kueue_crds(
    crds: dict[tuple[str, str], CrdVersion], tree: Path
) -> None:
    assert_valid(crds, objects(tree))


def test_committed_out_has_cluster_trees() -> None:
    # Guards the parametrized test above against passing on an empty list.
    assert committed_trees(), f"no cluster folder under {REPO / 'out'}"


def test_mixed_fleet_tree_is_valid_against_kueue_crds(
    crds: dict[tuple[str, str], CrdVersion], mixed_fleet_tree: Path
) -> None:
    trees = [p for p in mixed_fleet_tree.iterdir() if p.is_dir()]
    assert trees, f"the build wrote no cluster folder under {mixed_fleet_tree}"
    for tree in trees:
        assert_valid(crds, objects(tree))


def test_objects_without_a_crd_have_valid_metadata() -> None:
    """PriorityClass, Node and ConfigMap have no CRD here; their metadata is still checked (R15)."""
    found = [
        (rel, obj)
        for tree in committed_trees()
        for rel, obj in objects(tree)
        if not obj["apiVersion"].startswith(KUEUE_GROUP)
    ]
    assert {obj["kind"] for _, obj in found} >= {"PriorityClass", "Node", "ConfigMap"}
    errors = [
        f"{rel}: {obj['kind']}/{obj['metadata'].get('name')}: metadata.{e}"
        for rel, obj in found
        for e in validation_errors(OBJECT_META, obj["metadata"])
    ]
    assert not errors, "invalid metadata:\n" + "\n".join(errors)


def test_every_converted_schema_is_a_valid_draft7_schema(crds: dict[tuple[str, str], CrdVersion]) -> None:
    for crd in crds.values():
        # patterns are RE2, which the format "regex" (Python's `re`) does not read: load_crds
        # compiled each with RE2 (patterns.py), or refused the CRD
        Draft7Validator.check_schema(object_schema(crd), format_checker=FormatChecker(formats=()))


def _cluster_queue(crds: dict[tuple[str, str], CrdVersion]) -> tuple[dict[str, Any], dict[str, Any]]:
    crd = crds[(f"{KUEUE_GROUP}/v1beta2", "ClusterQueue")]
    obj = next(o for _, o in objects(REPO / "out" / "eastus-prod") if o["kind"] == "ClusterQueue")
    return object_schema(crd), obj


def test_broken_cluster_queue_is_rejected(crds: dict[tuple[str, str], CrdVersion]) -> None:
    schema, obj = _cluster_queue(crds)
    assert validation_errors(schema, obj) == []
    obj["spec"]["queueingStrategy"] = 7
    obj["spec"]["cohortNmae"] = "typo-of-cohortName"
    obj["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = ["8"]
    obj["status"] = {"pendingWorkloads": 0}
    errors = validation_errors(schema, obj)
    assert any(e.startswith("spec.queueingStrategy: 7 is not of type 'string'") for e in errors), errors
    assert any(e.startswith("spec: Additional properties") and "cohortNmae" in e for e in errors), errors
    assert any(e.startswith("spec.resourceGroups.0.flavors.0.resources.0.nominalQuota:") for e in errors)
    assert any(e.startswith("<root>: Additional properties") and "status" in e for e in errors), errors


def test_cluster_queue_limits_and_metadata_are_enforced(crds: dict[tuple[str, str], CrdVersion]) -> None:
    schema, obj = _cluster_queue(crds)
    flavor = obj["spec"]["resourceGroups"][0]["flavors"][0]
    obj["spec"]["resourceGroups"][0]["flavors"] = [dict(flavor, name=f"f{i}") for i in range(65)]
    obj["metadata"]["namespace"] = "kueue-system"  # ClusterQueue is cluster-scoped
    obj["metadata"]["labels"]["bad label"] = "x"
    errors = validation_errors(schema, obj)
    assert any(e.startswith("spec.resourceGroups.0.flavors: ") and "too long" in e for e in errors), errors
    assert any(e.startswith("metadata: Additional properties") and "namespace" in e for e in errors)
    assert any(e.startswith("metadata.labels: 'bad label'") for e in errors), errors


def test_local_queue_needs_a_namespace(crds: dict[tuple[str, str], CrdVersion]) -> None:
    schema = object_schema(crds[(f"{KUEUE_GROUP}/v1beta2", "LocalQueue")])
    obj: dict[str, Any] = {
        "apiVersion": f"{KUEUE_GROUP}/v1beta2",
        "kind": "LocalQueue",
        "metadata": {"name": "taugrid"},
        "spec": {"clusterQueue": "taugrid"},
    }
    assert validation_errors(schema, obj) == ["metadata: 'namespace' is a required property"]
    obj["metadata"]["namespace"] = "team-a"
    assert validation_errors(schema, obj) == []


def test_strict_schema_conversion() -> None:
    node = {
        "type": "object",
        "properties": {
            "quantity": {
                "x-kubernetes-int-or-string": True,
                "anyOf": [{"type": "integer"}, {"type": "string"}],
            },
            "maybe": {"type": "string", "nullable": True, "enum": ["a"]},
            "open": {"type": "object", "properties": {"a": {}}, "x-kubernetes-preserve-unknown-fields": True},
            "map": {"type": "object", "additionalProperties": {"type": "object", "properties": {"b": {}}}},
        },
        "x-kubernetes-validations": [{"rule": "self.quantity > 0"}],
    }
    schema = strict_schema(node)
    assert "x-kubernetes-validations" not in schema
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["quantity"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert props["maybe"] == {"type": ["string", "null"], "enum": ["a", None]}
    assert "additionalProperties" not in props["open"]
    assert props["map"]["additionalProperties"]["additionalProperties"] is False
    ok = {"quantity": "8", "maybe": None, "open": {"x": 1}, "map": {"k": {"b": 1}}}
    assert validation_errors(schema, ok) == []
    assert validation_errors(schema, {"map": {"k": {"c": 1}}, "quantity": 1.5}) == [
        "map.k: Additional properties are not allowed ('c' was unexpected)",
        "quantity: 1.5 is not valid under any of the given schemas",
    ]


def test_patterns_stay_go_re2_and_are_read_as_go_reads_them() -> None:
    schema = strict_schema({"type": "string", "pattern": "^(?i)[a-z]+$"})
    assert schema == {"type": "string", "pattern": "^(?i)[a-z]+$"}
    assert validation_errors(schema, "AbC") == []
    assert validation_errors(schema, "AbC\n") == ["<root>: 'AbC\\n' does not match '^(?i)[a-z]+$'"]
