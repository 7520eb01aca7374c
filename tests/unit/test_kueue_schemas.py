"""taugen's own Kueue v1beta2 JSON Schemas (taugen/api/kueue): committed, valid, and faithful.

Faithful means: on a corpus of valid and invalid documents, taugen's schema, taugen's models
and the upstream Kueue v0.19.2 CRD (converted by tests/support/crd.py) all give the verdict the
corpus expects. The upstream half needs the workspace's ../shared/crds and is skipped without
it; everything else runs in a clone of the repository alone.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from taugen.api.kueue import API_VERSION, KINDS, SCHEMA_DIR, kueue_schema_files
from taugen.commands.schema import all_schema_files, export_schemas
from taugen.validate.patterns import with_re2_patterns
from tests.support.crd import Schema, load_crds, object_schema

REPO = Path(__file__).resolve().parents[2]
KUEUE_CRDS = REPO.parent / "shared" / "crds" / "kueue"
CORPUS = REPO / "tests" / "cases" / "kueue_schema"
GROUP = "kueue.x-k8s.io"
REGENERATE = "regenerate them at the repository root with `.venv/bin/taugen schema --out schemas`"
ERROR_AT = "test.taugen/error-at"  # an invalid corpus document names where it is wrong
TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _ManifestLoader(yaml.SafeLoader):
    """YAML as kubectl reads it into JSON: a timestamp stays a string."""


_ManifestLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_documents(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.load_all(path.read_text(), Loader=_ManifestLoader) if d is not None]


@functools.cache
def committed_schema(kind: str) -> Schema:
    schema: Schema = json.loads((SCHEMA_DIR / GROUP / f"{kind.lower()}_v1beta2.json").read_text())
    return schema


def paths(validator: Any, doc: dict[str, Any]) -> set[str]:
    """Where the validator reports errors: dotted instance paths, `<root>` for the top."""
    return {".".join(map(str, e.absolute_path)) or "<root>" for e in validator.iter_errors(doc)}


def taugen_paths(doc: dict[str, Any]) -> set[str]:
    return paths(with_re2_patterns(Draft202012Validator)(committed_schema(doc["kind"])), doc)


# --- (a) the committed files are the generated ones ---------------------------------------


def test_committed_kueue_schemas_are_the_generated_ones() -> None:
    generated = kueue_schema_files()
    committed = {p.relative_to(SCHEMA_DIR).as_posix(): p.read_bytes() for p in (SCHEMA_DIR / GROUP).glob("*")}
    assert sorted(committed) == sorted(generated), f"Kueue schema files differ from the models: {REGENERATE}"
    stale = [name for name in sorted(generated) if committed[name] != generated[name]]
    assert not stale, f"{', '.join(stale)} out of date with taugen/api/kueue: {REGENERATE}"


def test_one_file_per_kind_where_kubeconform_looks() -> None:
    # kubeconform -schema-location 'schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'
    assert sorted(kueue_schema_files()) == sorted(f"{GROUP}/{kind.lower()}_v1beta2.json" for kind in KINDS)
    assert (REPO / "schemas" / GROUP / "clusterqueue_v1beta2.json").is_file()  # the one committed tree
    assert f"{GROUP}/v1beta2" == API_VERSION


def _nodes(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [node, *(n for v in node.values() for n in _nodes(v))]
    if isinstance(node, list):
        return [n for v in node for n in _nodes(v)]
    return []


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_schema_is_valid_self_contained_and_closed(kind: str) -> None:
    schema = committed_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["kind"]["const"] == kind
    nodes = _nodes(schema)
    refs = [n["$ref"] for n in nodes if isinstance(n.get("$ref"), str)]
    assert refs and all(r.startswith("#/$defs/") for r in refs), f"a non-local $ref in {kind}: {refs}"
    open_objects = [
        n.get("title", "?") for n in nodes if "properties" in n and n.get("additionalProperties") is not False
    ]
    assert not open_objects, f"objects that accept unknown fields: {open_objects}"


def test_export_schemas_writes_them_and_removes_stale_ones(tmp_path: Path) -> None:
    """Issue 18: one writer for every schema family; each family's stale files go, nothing else."""
    stale = [f"{GROUP}/workload_v1beta1.json", "scheduling.run.ai/queue_v1.json", "nodeset.schema.json"]
    kept = ["README.md", "package.json", f"{GROUP}/notes.txt"]
    for name in stale + kept:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    written = export_schemas(tmp_path)
    files = all_schema_files()
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(files)
    assert set(kueue_schema_files()) <= set(files)
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert left == sorted([*files, *kept])
    assert all(p.read_bytes() == files[p.relative_to(tmp_path).as_posix()] for p in written)


# --- (b) every Kueue object taugen committed validates ------------------------------------


def committed_trees() -> list[Path]:
    """The committed trees of the example's Kueue clusters (a `scheduler: kai` one holds no Kueue object)."""
    clusters = yaml.safe_load((REPO / "taugen.yaml").read_text())["clusters"]
    kueue = {c["name"] for c in clusters if c.get("scheduler", "kueue") == "kueue"}
    out = REPO / "out"
    return sorted(p for p in out.iterdir() if p.is_dir() and p.name in kueue) if out.is_dir() else []


def kueue_objects(tree: Path) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{tree.name}/{path.relative_to(tree).as_posix()}", doc)
        for path in sorted(tree.rglob("*.yaml"))
        for doc in load_documents(path)
        if str(doc.get("apiVersion", "")).startswith(f"{GROUP}/")
    ]


def test_committed_out_has_cluster_trees() -> None:
    assert committed_trees(), f"no cluster folder under {REPO / 'out'}"  # guards the test below


@pytest.mark.parametrize("tree", committed_trees(), ids=lambda p: p.name)
def test_committed_kueue_objects_validate(tree: Path) -> None:
    found = kueue_objects(tree)
    kinds = {doc["kind"] for _, doc in found}
    expected = {"ClusterQueue", "LocalQueue", "ResourceFlavor", "Topology", "WorkloadPriorityClass"}
    if "MultiKueueConfig" in kinds:  # M2: a manager with no GPU node of its own has no Topology
        expected.remove("Topology")
    assert kinds >= expected
    errors = [
        f"{rel}: {doc['metadata']['name']}: {p}" for rel, doc in found for p in sorted(taugen_paths(doc))
    ]
    assert not errors, "committed objects taugen's schemas reject:\n" + "\n".join(errors)


# --- (c) a corpus, and agreement with the upstream CRDs -----------------------------------


class Case(NamedTuple):
    id: str
    doc: dict[str, Any]
    valid: bool


def _object(kind: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"apiVersion": API_VERSION, "kind": kind, "metadata": {"name": name}, **fields}


def _group(resources: int, flavors: int) -> dict[str, Any]:
    names = [f"example.com/r{i}" for i in range(resources)]
    quotas = [{"name": n, "nominalQuota": 1} for n in names]
    return {
        "coveredResources": names,
        "flavors": [{"name": f"f{j}", "resources": quotas} for j in range(flavors)],
    }


def _checks(checks: int, on_flavors: int) -> dict[str, Any]:
    rules = [{"name": f"check-{i}", "onFlavors": [f"f{j}" for j in range(on_flavors)]} for i in range(checks)]
    return {"admissionChecks": rules}


def _taints(n: int) -> list[dict[str, Any]]:
    return [{"key": f"t{i}", "effect": "NoSchedule"} for i in range(n)]


def _sized(n: int) -> dict[str, dict[str, Any]]:
    """One document per size limit in LIMITS, with n items where the limit applies."""
    labels = {f"example.com/l{i}": "x" for i in range(n)}
    levels = [{"nodeLabel": f"example.com/level-{i}"} for i in range(n)]
    return {
        "spec.resourceGroups": _object("ClusterQueue", "", spec={"resourceGroups": [_group(1, 1)] * n}),
        "spec.resourceGroups.0.flavors": _object("ClusterQueue", "", spec={"resourceGroups": [_group(1, n)]}),
        "spec.resourceGroups.0.coveredResources": _object(
            "ClusterQueue", "", spec={"resourceGroups": [_group(n, 1)]}
        ),
        "spec.admissionChecksStrategy.admissionChecks": _object(
            "ClusterQueue", "", spec={"admissionChecksStrategy": _checks(n, 1)}
        ),
        "spec.admissionChecksStrategy.admissionChecks.0.onFlavors": _object(
            "ClusterQueue", "", spec={"admissionChecksStrategy": _checks(1, n)}
        ),
        "spec.nodeLabels": _object("ResourceFlavor", "", spec={"nodeLabels": labels}),
        "spec.nodeTaints": _object("ResourceFlavor", "", spec={"nodeTaints": _taints(n)}),
        "spec.tolerations": _object("ResourceFlavor", "", spec={"tolerations": [{"operator": "Exists"}] * n}),
        "spec.levels": _object("Topology", "", spec={"levels": levels}),
    }


# Where a Kueue size limit applies -> the limit: a document at the limit is valid, one over is not.
LIMITS = {"spec.resourceGroups": 16, "spec.levels": 16, "spec.nodeLabels": 8, "spec.nodeTaints": 8}
LIMITS |= {"spec.tolerations": 8, "spec.resourceGroups.0.flavors": 64}
LIMITS |= {"spec.resourceGroups.0.coveredResources": 64, "spec.admissionChecksStrategy.admissionChecks": 64}
LIMITS |= {"spec.admissionChecksStrategy.admissionChecks.0.onFlavors": 64}
# (kind, path to a string field, its maximum length); every field is a-z only, so only the length counts.
LENGTHS = [
    ("WorkloadPriorityClass", ("description",), 2048),
    ("AdmissionCheck", ("spec", "controllerName"), 253),
    ("ClusterQueue", ("spec", "cohortName"), 253),
    ("Cohort", ("spec", "parentName"), 253),
    ("Topology", ("spec", "levels", 0, "nodeLabel"), 316),
    ("ClusterQueue", ("spec", "admissionChecksStrategy", "admissionChecks", 0, "name"), 316),
    ("ClusterQueue", ("metadata", "name"), 253),
]
# The parents of those fields; each case then sets the one field it tests.
LENGTH_BASES: dict[str, dict[str, Any]] = {
    "WorkloadPriorityClass": {"value": 1},
    "AdmissionCheck": {"spec": {}},
    "ClusterQueue": {"spec": {"admissionChecksStrategy": _checks(1, 0)}},
    "Cohort": {"spec": {}},
    "Topology": {"spec": {"levels": [{}]}},
}


def _with(doc: dict[str, Any], loc: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    parent: Any = out
    for step in loc[:-1]:
        parent = parent[step]
    parent[loc[-1]] = value
    return out


def _invalid(case_id: str, doc: dict[str, Any], error_at: str) -> Case:
    doc = copy.deepcopy(doc)
    doc["metadata"]["name"] = doc["metadata"]["name"] or case_id
    doc["metadata"]["annotations"] = {ERROR_AT: error_at}
    return Case(case_id, doc, False)


def _valid(case_id: str, doc: dict[str, Any]) -> Case:
    return Case(case_id, _with(doc, ("metadata", "name"), doc["metadata"]["name"] or case_id), True)


def generated_cases() -> list[Case]:
    cases = []
    for where, limit in LIMITS.items():
        cases.append(_valid(f"at-limit-{where}".lower(), _sized(limit)[where]))
        cases.append(_invalid(f"over-limit-{where}".lower(), _sized(limit + 1)[where], where))
    for kind, loc, length in LENGTHS:
        base, where = _object(kind, "", **LENGTH_BASES[kind]), ".".join(map(str, loc))
        cases.append(_valid(f"length-{length}-{where}".lower(), _with(base, loc, "a" * length)))
        too_long = _with(base, loc, "a" * (length + 1))
        cases.append(_invalid(f"length-{length + 1}-{where}".lower(), too_long, where))
    nameless = _object("ClusterQueue", "", metadata={"annotations": {ERROR_AT: "metadata"}})
    return [*cases, Case("metadata-without-name-or-generate-name", nameless, False)]


def _namespaced(meta: dict[str, Any]) -> str:
    """Two tenants' LocalQueues may share a name (T5): their namespaces tell them apart."""
    return f"{meta['namespace']}-{meta['name']}" if meta.get("namespace") else str(meta["name"])


def corpus() -> list[Case]:
    cases = [
        Case(doc["metadata"]["name"], doc, folder == "valid")
        for folder in ("valid", "invalid")
        for path in sorted((CORPUS / folder).glob("*.yaml"))
        for doc in load_documents(path)
    ]
    cases += [
        Case(f"out-{rel.replace('/', '-')}-{_namespaced(doc['metadata'])}", doc, True)
        for tree in committed_trees()
        for rel, doc in kueue_objects(tree)
    ]
    return cases + generated_cases()


CORPUS_CASES = corpus()


def test_corpus_is_large_and_mixed() -> None:
    ids = [c.id for c in CORPUS_CASES]
    assert len(ids) == len(set(ids)), "case ids (metadata.name in the files) must be unique"
    valid = {c.doc["kind"] for c in CORPUS_CASES if c.valid}
    invalid = {c.doc["kind"] for c in CORPUS_CASES if not c.valid}
    assert valid == invalid == set(KINDS), "every kind needs valid and invalid documents"
    assert sum(c.valid for c in CORPUS_CASES) >= 40 and sum(not c.valid for c in CORPUS_CASES) >= 40
    assert all(c.valid or ERROR_AT in c.doc["metadata"].get("annotations", {}) for c in CORPUS_CASES)


def _check(case: Case, found: set[str], who: str) -> None:
    if case.valid:
        assert not found, f"{who} rejects the valid document {case.id} at {sorted(found)}"
    else:
        where = case.doc["metadata"]["annotations"][ERROR_AT]
        assert where in found, f"{who} finds no error at {where} in {case.id}, only at {sorted(found)}"


@pytest.mark.parametrize("case", CORPUS_CASES, ids=lambda c: c.id)
def test_taugen_schema_verdict(case: Case) -> None:
    _check(case, taugen_paths(case.doc), "taugen's schema")


@pytest.mark.parametrize("case", CORPUS_CASES, ids=lambda c: c.id)
def test_model_verdict_agrees(case: Case) -> None:
    try:
        KINDS[case.doc["kind"]].model_validate(case.doc)
    except ValidationError as err:
        assert not case.valid, f"the model rejects the valid document {case.id}:\n{err}"
    else:
        assert case.valid, f"the model accepts the invalid document {case.id}"


@pytest.fixture(scope="module")
def upstream() -> dict[str, Any]:
    if not KUEUE_CRDS.is_dir():
        pytest.skip(f"upstream Kueue CRDs not found at {KUEUE_CRDS} (only the full workspace has ../shared)")
    crds = load_crds(KUEUE_CRDS)
    re2_validator = with_re2_patterns(Draft202012Validator)  # CRD patterns are Go RE2 (patterns.py)
    return {kind: re2_validator(object_schema(crds[(API_VERSION, kind)])) for kind in KINDS}


@pytest.mark.parametrize("case", CORPUS_CASES, ids=lambda c: c.id)
def test_upstream_crd_agrees(case: Case, upstream: dict[str, Any]) -> None:
    found = paths(upstream[case.doc["kind"]], case.doc)
    _check(case, found, "the upstream CRD")
    assert found == taugen_paths(case.doc), "taugen and the upstream CRD report errors in different places"


# --- where taugen's schema and the upstream CRD (as tests/support/crd.py wraps it) differ ----
# (case, document, taugen accepts, upstream accepts). The wrapper is stricter on metadata and
# status than the API server, which taugen follows; taugen adds a few checks the API server
# makes outside the CRD's structural schema. (A repeated set item and an annotation key that is
# no qualified name were here until crd.py learned them, issue 20.)


def _diverging(case_id: str, kind: str = "ClusterQueue", **fields: Any) -> dict[str, Any]:
    return _object(kind, case_id, **fields)


_SERVER_META = {"uid": "5c4f", "resourceVersion": "42", "generation": 3, "creationTimestamp": None}
DIVERGENCES = [
    ("status-is-allowed", _diverging("status", spec={}, status={"pendingWorkloads": 0}), True, False),
    (
        "server-metadata",
        _with(_diverging("meta"), ("metadata",), {"name": "meta", **_SERVER_META}),
        True,
        False,
    ),
    ("generate-name", _with(_diverging("x"), ("metadata",), {"generateName": "cq-"}), True, False),
    ("namespace-from-kubectl", _diverging("lq", "LocalQueue", spec={"clusterQueue": "cq"}), True, False),
    ("value-over-int32", _diverging("wpc", "WorkloadPriorityClass", value=2**31), False, True),
    (
        "priority-threshold-over-int32",
        _diverging(
            "cq",
            spec={
                "preemption": {
                    "reclaimWithinCohort": "Any",
                    "borrowWithinCohort": {"policy": "LowerPriority", "maxPriorityThreshold": -(2**31) - 1},
                }
            },
        ),
        False,
        True,
    ),
    (
        "label-name-over-63",
        _with(_diverging("cq"), ("metadata", "labels"), {"x/" + "a" * 64: ""}),
        False,
        True,
    ),
]


@pytest.mark.parametrize(
    ("case", "doc", "taugen_ok", "upstream_ok"), DIVERGENCES, ids=[d[0] for d in DIVERGENCES]
)
def test_known_divergence_taugen_side(
    case: str, doc: dict[str, Any], taugen_ok: bool, upstream_ok: bool
) -> None:
    assert (not taugen_paths(doc)) is taugen_ok
    try:
        KINDS[doc["kind"]].model_validate(doc)
    except ValidationError:
        assert not taugen_ok, f"the model rejects {case}"
    else:
        assert taugen_ok, f"the model accepts {case}"


@pytest.mark.parametrize(
    ("case", "doc", "taugen_ok", "upstream_ok"), DIVERGENCES, ids=[d[0] for d in DIVERGENCES]
)
def test_known_divergence_upstream_side(
    case: str,
    doc: dict[str, Any],
    taugen_ok: bool,
    upstream_ok: bool,
    upstream: dict[str, Draft202012Validator],
) -> None:
    assert (not paths(upstream[doc["kind"]], doc)) is upstream_ok, f"{case} is no longer a divergence"
