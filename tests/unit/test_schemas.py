"""The committed input JSON Schemas (STYLE.md: generated from the models, a test fails on drift)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from taugen.models.schemas import KINDS, schema_files

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
REGENERATE = "regenerate them with `taugen schema --out schemas` at the repository root"
TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _EditorLoader(yaml.SafeLoader):
    """YAML as a schema-aware editor reads it: a date or time stays a string."""


_EditorLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_all(path: Path) -> list[Any]:
    return [doc for doc in yaml.load_all(path.read_text(), Loader=_EditorLoader) if doc is not None]


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / name).read_text()))


def errors(name: str, doc: Any) -> list[str]:
    return sorted(
        f"{'.'.join(str(s) for s in e.absolute_path) or '<root>'}: {e.message}"
        for e in validator(name).iter_errors(doc)
    )


# --- drift ---------------------------------------------------------------------------------


def test_committed_schemas_are_the_generated_ones() -> None:
    generated = schema_files()
    committed = {p.name: p.read_bytes() for p in SCHEMAS.glob("*.json")}
    assert sorted(committed) == sorted(generated), f"schema files differ from the models: {REGENERATE}"
    stale = [name for name in sorted(generated) if committed[name] != generated[name]]
    assert not stale, f"{', '.join(stale)} out of date with the models: {REGENERATE}"


def test_one_schema_per_input_kind() -> None:
    assert sorted(schema_files()) == sorted(f"{kind.lower()}.schema.json" for kind in KINDS)


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_schema_is_a_valid_json_schema(name: str) -> None:
    schema = json.loads((SCHEMAS / name).read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/{name}")


# --- the repository's inputs validate ------------------------------------------------------


def _helm_rules(path: Path) -> list[Any]:
    """The Helm-values shape holds the bare form under tau-core-controller.tauCluster (§1.3)."""
    return [
        {"extraNodeLabelRules": d["tau-core-controller"]["tauCluster"]["extraNodeLabelRules"]}
        for d in load_all(path)
    ]


def _inputs() -> list[tuple[str, str, Callable[[Path], list[Any]]]]:
    cases: list[tuple[str, str, Callable[[Path], list[Any]]]] = [
        ("taugen.yaml", "project.schema.json", load_all),
        ("examples/eastus-prod/inventory.yaml", "clusterinventory.schema.json", load_all),
        ("taugen.lock", "lock.schema.json", load_all),
        ("examples/westus3-dev/rules.yaml", "nodelabelrules.schema.json", load_all),
        ("examples/values/tau-core-controller.yaml", "nodelabelrules.schema.json", _helm_rules),
    ]
    profiles = sorted((REPO / "taugen" / "profiles").glob("*.yaml"))
    cases += [(p.relative_to(REPO).as_posix(), "workloadprofile.schema.json", load_all) for p in profiles]
    return cases


def test_built_in_profiles_exist() -> None:
    # Guards the parametrized test below against an empty profile glob.
    assert sum(1 for rel, _, _ in _inputs() if rel.startswith("taugen/profiles/")) >= 1


@pytest.mark.parametrize(("rel", "schema", "load"), _inputs(), ids=[c[0] for c in _inputs()])
def test_repository_input_validates(rel: str, schema: str, load: Callable[[Path], list[Any]]) -> None:
    docs = load(REPO / rel)
    assert docs, f"{rel} holds no document"
    title = json.loads((SCHEMAS / schema).read_text())["title"]
    for doc in docs:
        assert errors(schema, doc) == [], f"{rel} does not validate against {schema}"
        if title != "NodeLabelRules":
            assert doc["kind"] == title


# --- invalid documents are rejected --------------------------------------------------------

PROJECT = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "Project",
    "clusters": [{"name": "c1", "inventory": "inv.yaml", "tenants": [{"namespace": "team-a"}]}],
}
INVENTORY = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "ClusterInventory",
    "metadata": {"name": "c1"},
    "observedAt": "2026-11-28T12:00:00Z",
    "site": "eastus",
    "nodes": [{"name": "n0", "vmSize": "Standard_ND96isr_H200_v5", "allocatable": {"nvidia.com/gpu": "8"}}],
}
PROFILE = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "WorkloadProfile",
    "metadata": {"name": "p"},
    "policy": {"priority_tier": "default", "gpu_class": "h200-141gb", "topology": "same-host"},
}
LOCK = {
    "apiVersion": "taugen.tau.azure.com/v1alpha1",
    "kind": "Lock",
    "clusters": {
        "c1": {
            "observedAt": "2026-11-28T12:00:00Z",
            "inputsDigest": "sha256:00",
            "treeDigest": "sha256:00",
            "gpuQuota": {"h200-141gb": 8},
        }
    },
}
RULES = {"extraNodeLabelRules": [{"match": {"vmSizes": ["X"]}, "labels": {"tau.azure.com/gpu-class": "x"}}]}

BASES: dict[str, tuple[str, dict[str, Any]]] = {
    "Project": ("project.schema.json", PROJECT),
    "ClusterInventory": ("clusterinventory.schema.json", INVENTORY),
    "WorkloadProfile": ("workloadprofile.schema.json", PROFILE),
    "Lock": ("lock.schema.json", LOCK),
    "NodeLabelRules": ("nodelabelrules.schema.json", RULES),
}

# (kind, path to the value, new value or DELETE, a fragment of the expected error)
DELETE = object()
INVALID: list[tuple[str, tuple[str | int, ...], object, str]] = [
    ("Project", ("clustrs",), [], r"Additional properties are not allowed \('clustrs'"),
    ("Project", ("clusters", 0, "tenants"), DELETE, r"'tenants' is a required property"),
    ("Project", ("clusters",), [], r"should be non-empty|is too short"),
    ("Project", ("kind",), "ClusterInventory", r"'Project' was expected"),
    ("ClusterInventory", ("nodes", 0, "ready"), "yes", r"'yes' is not of type 'boolean'"),
    ("ClusterInventory", ("observedAt",), DELETE, r"'observedAt' is a required property"),
    ("ClusterInventory", ("nodes", 0, "allocatable", "nvidia.com/gpu"), 8.5, r"8.5 is not valid under any"),
    ("ClusterInventory", ("nodes", 0, "gpus"), 8, r"Additional properties are not allowed \('gpus'"),
    ("WorkloadProfile", ("policy", "topology"), "same-rack", r"'same-rack' is not one of"),
    # R50: any tier name is valid in a profile (the project says which exist), a non-DNS one is not
    ("WorkloadProfile", ("policy", "priority_tier"), "High_Tier", r"'High_Tier' does not match"),
    ("Lock", ("clusters", "c1", "gpuQuota", "h200-141gb"), "eight", r"'eight' is not of type 'integer'"),
    ("Lock", ("clusters", "c1", "inputsDigest"), DELETE, r"'inputsDigest' is a required property"),
    ("NodeLabelRules", ("extraNodeLabelRules", 0, "match", "vmSizes"), [], r"should be non-empty|too short"),
    ("NodeLabelRules", ("extraNodeLabelRules", 0, "labels"), {}, r"should be non-empty|does not have enough"),
    ("NodeLabelRules", ("extraNodeLabelRules", 0, "match"), DELETE, r"'match' is a required property"),
]


def _mutated(doc: dict[str, Any], loc: tuple[str | int, ...], value: object) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    parent: Any = out
    for step in loc[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[loc[-1]]
    else:
        parent[loc[-1]] = value
    return out


@pytest.mark.parametrize("kind", sorted(BASES))
def test_base_documents_are_valid(kind: str) -> None:
    # The invalid documents below differ from these in one place only.
    schema, doc = BASES[kind]
    assert errors(schema, doc) == []
    KINDS[kind].model_validate(doc)


@pytest.mark.parametrize(
    ("kind", "loc", "value", "expected"),
    INVALID,
    ids=[f"{k}-{'.'.join(map(str, loc))}" for k, loc, _, _ in INVALID],
)
def test_invalid_document_is_rejected(
    kind: str, loc: tuple[str | int, ...], value: object, expected: str
) -> None:
    schema, base = BASES[kind]
    doc = _mutated(base, loc, value)
    found = errors(schema, doc)
    assert any(re.search(expected, e) for e in found), f"{schema} accepted or misreported: {found}"
    with pytest.raises(ValidationError):  # the schema and the model agree
        KINDS[kind].model_validate(doc)
