"""Validate resources: strict schemas per object, then the cross-object rules."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from jsonschema import ValidationError

from taugen.validate import cohorts, kai, nodes, objects, policy, semantic, upstream
from taugen.validate.built_nodes import NOTHING, Vouched
from taugen.validate.cel import CelCheck, Unchecked, unchecked_list
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource
from taugen.validate.schemas import SchemaSource, SchemaStore

Status = Literal["valid", "invalid", "skipped"]
RULES: tuple[Callable[[semantic.Tree], Iterator[Finding]], ...] = (
    semantic.local_queue_targets,
    semantic.cluster_queue_flavors,
    semantic.flavor_topologies,
    semantic.covered_resources,
    semantic.one_group,
    semantic.hostname_last,
    semantic.canonical_quantities,
    cohorts.cohort_shapes,
    policy.limits,
    policy.priority_pairs,
    policy.namespace_selectors,
    nodes.node_names,
    nodes.node_levels,
    nodes.flavor_nodes,
    kai.queue_parents,
    kai.reserved_names,
    kai.leaf_quotas,
    kai.node_levels,
)
MAX_MESSAGE = 200


@dataclass(frozen=True)
class Result:
    resource: Resource
    status: Status
    findings: list[Finding]
    schema_source: SchemaSource | None  # None when skipped


@dataclass(frozen=True)
class Report:
    results: list[Result]
    files: int
    unreadable: list[Finding] = field(default_factory=list)  # YAML that is no manifest at all
    unchecked: list[Unchecked] = field(default_factory=list)  # CEL rules not evaluated (cel.py)
    without_crd: dict[str, int] = field(default_factory=dict)  # group -> objects whose CRD was not given
    sources: list[Finding] = field(default_factory=list)  # about the given CRDs (releases.py)
    project: list[Finding] = field(default_factory=list)  # about taugen.yaml (R49), with no PATH given

    def count(self, status: Status) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def findings(self) -> list[Finding]:
        resources = (f for r in self.results for f in r.findings)
        return sorted([*self.sources, *self.project, *self.unreadable, *resources])

    @property
    def valid(self) -> bool:
        return not any(f.is_error for f in self.findings)


def validate(
    resources: list[Resource],
    store: SchemaStore,
    files: int,
    unreadable: list[Finding] | None = None,
    roots: Sequence[Path] = (),
    vouched: Vouched = NOTHING,
) -> Report:
    """roots: the cluster trees (a duplicate name is one within a tree); none: all one tree.
    vouched: the Nodes built_nodes.clean found nothing to say of (issue 36). Each is valid, by
    Kubernetes' schema, with no finding; the rules read only the classes they carry."""
    by_resource: dict[int, list[Finding]] = defaultdict(list)
    sources: dict[int, SchemaSource | None] = {}
    checked = [r for r in resources if id(r) not in vouched.ids] if vouched.ids else resources
    for resource in checked:
        sources[id(resource)], found = _schema_findings(resource, store)
        by_resource[id(resource)].extend(found)
    tree = semantic.Tree(checked, vouched.classes)
    for rule in RULES:
        for item in rule(tree):
            by_resource[item.owner].append(item)
    cel = CelCheck(store.rules)
    for item in _api_server_findings(checked, cel, roots):
        by_resource[item.owner].append(item)
    results = [_result(r, sorted(by_resource[id(r)]), sources.get(id(r), "kubernetes")) for r in resources]
    return Report(
        results,
        files,
        unreadable or [],
        unchecked_list(cel.unchecked),
        _without_crd(results, store.rules.given_kinds()),
        store.release_findings(),
    )


def _without_crd(results: list[Result], given: frozenset[tuple[str, str]]) -> dict[str, int]:
    """Objects of a custom resource kind whose CRD was not given: its upstream rules did not run
    (taugen's own did). A built-in kind's schema is Kubernetes' own: it needs no CRD."""
    groups: Counter[str] = Counter()
    for result in results:
        obj = result.resource.obj
        api_version = str(obj.get("apiVersion", "")) if isinstance(obj, dict) else ""
        group = api_version.rpartition("/")[0]
        if (
            "." in group
            and result.schema_source != "kubernetes"
            and (api_version, result.resource.kind) not in given
        ):
            groups[group] += 1
    return dict(sorted(groups.items()))


def _api_server_findings(
    resources: list[Resource], cel: CelCheck, roots: Sequence[Path]
) -> Iterator[Finding]:
    """What the API server, Argo CD or kustomize would refuse (issue 20): CEL rules (the given
    CRDs', else taugen's own checks of them: issue 30), sizes, duplicates, names."""
    for resource in resources:
        yield from cel.findings(resource)
    yield from upstream.findings(resources, cel.source.given_kinds())
    yield from objects.sizes(resources)
    yield from objects.duplicates(resources, roots)
    yield from objects.metadata_names(resources)


def _result(resource: Resource, findings: list[Finding], source: SchemaSource | None) -> Result:
    if any(f.is_error for f in findings):
        return Result(resource, "invalid", findings, source)
    return Result(resource, "valid" if source else "skipped", findings, source)


def _schema_findings(resource: Resource, store: SchemaStore) -> tuple[SchemaSource | None, list[Finding]]:
    obj = resource.obj
    if not isinstance(obj, dict) or not obj.get("apiVersion") or not obj.get("kind"):
        return None, [
            finding(
                resource,
                [],
                "schema",
                "not a Kubernetes object: apiVersion and kind are required",
                "every document must be one Kubernetes object",
            )
        ]
    checker = store.lookup(str(obj["apiVersion"]), str(obj["kind"]))
    if checker is None:
        return None, []
    errors = sorted(checker.errors(obj), key=lambda e: [str(s) for s in e.absolute_path])
    return checker.source, [f for e in errors for f in _schema_findings_of(resource, e, checker.source)]


def _schema_findings_of(resource: Resource, error: ValidationError, source: str) -> list[Finding]:
    """One finding per schema error; an object with unknown fields gets one per field, at its key."""
    hint = f"the {source} schema for {resource.kind} rejects it"
    path = list(error.absolute_path)
    where = ".".join(str(s) for s in path) or "object"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, dict) else {}
        extra = [k for k in error.instance if k not in schema.get("properties", {})]  # file order
        if extra:
            return [
                finding(resource, [*path, k], "schema", f"{where}: unknown field {k!r}", hint, key=True)
                for k in extra
            ]
    message = error.message if len(error.message) <= MAX_MESSAGE else error.message[:MAX_MESSAGE] + "…"
    return [finding(resource, path, "schema", f"{where}: {message}", hint)]
