"""Real CRDs as strict JSON Schemas (`taugen validate --crd`): validate offline against a release.

The API server silently prunes a field its CRD does not declare, and Argo CD then reports a
diff that never settles; a strict schema turns that into a test failure. The conversion of a
CRD version's `openAPIV3Schema` (a structural OpenAPI v3 schema) to JSON Schema draft 7:

- an object with `properties` and no `x-kubernetes-preserve-unknown-fields` gets
  `additionalProperties: false` (the API server would prune anything else);
- `x-kubernetes-int-or-string` becomes `anyOf: [string, integer]`;
- `nullable: true` adds `null` to the type;
- `x-kubernetes-list-type: set` becomes `uniqueItems: true` (a duplicate is refused);
- every other `x-kubernetes-*` keyword is dropped, `x-kubernetes-validations` (CEL) included:
  those rules are not checked here;
- a `pattern` stays the Go RE2 pattern it is: the validators read it with RE2 (`patterns.py`,
  issues 17 and 30); one RE2 refuses is a PatternError, as the API server refuses the CRD.

`object_schema` wraps a version's schema for one whole object: apiVersion and kind fixed,
`metadata` checked by `OBJECT_META` (the CRD leaves it open; the API server checks it), a
namespace required or forbidden by the CRD's scope, and no `status` (a GitOps manifest never
carries one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from taugen.core import names
from taugen.core.errors import InputError, Problem
from taugen.load.fast import yaml11_documents
from taugen.validate.patterns import PatternError, refusal, whole
from taugen.validate.releases import crd_release, release_of

Schema = dict[str, Any]

_SUBDOMAIN, _LABEL = whole(names.DNS1123_SUBDOMAIN), whole(names.DNS1123_LABEL)  # names.py: their one home
# What a manifest in Git may hold in metadata: no uid, resourceVersion, managedFields, ...
OBJECT_META: Schema = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": _SUBDOMAIN},
        "namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": _LABEL},
        "labels": {
            "type": "object",
            "propertyNames": {"maxLength": 317, "pattern": whole(names.LABEL_KEY)},
            "additionalProperties": {"type": "string", "maxLength": 63, "pattern": whole(names.LABEL_VALUE)},
        },
        # the API server checks annotation keys as it checks label keys (qualified names)
        "annotations": {
            "type": "object",
            "propertyNames": {"maxLength": 317, "pattern": whole(names.LABEL_KEY)},
            "additionalProperties": {"type": "string"},
        },
    },
    "required": ["name"],
    "additionalProperties": False,
}

_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
CRD_HINT = "pass CustomResourceDefinition YAML: a release's CRD files or `kubectl get crd NAME -o yaml`"


def strict_schema(node: Mapping[str, Any]) -> Schema:
    """One openAPIV3Schema node (and everything below it) as a strict JSON Schema; PatternError
    for a pattern RE2 refuses."""
    out: Schema = {k: v for k, v in node.items() if not k.startswith("x-kubernetes-")}
    if "properties" in out:
        out["properties"] = {name: strict_schema(sub) for name, sub in out["properties"].items()}
        if not node.get("x-kubernetes-preserve-unknown-fields") and "additionalProperties" not in out:
            out["additionalProperties"] = False
    for key in ("additionalProperties", "items", "not"):
        if isinstance(out.get(key), Mapping):
            out[key] = strict_schema(out[key])
    for key in _SUBSCHEMA_LISTS:
        if key in out:
            out[key] = [strict_schema(sub) for sub in out[key]]
    if node.get("x-kubernetes-list-type") == "set":  # the API server refuses a duplicate
        out["uniqueItems"] = True
    if node.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out["anyOf"] = [{"type": "string"}, {"type": "integer"}]
    if out.pop("nullable", False):
        _allow_null(out)
    if isinstance(out.get("pattern"), str) and (why := refusal(out["pattern"])) is not None:
        raise PatternError(why)
    return out


def _allow_null(schema: Schema) -> None:
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        schema["type"] = [*types, "null"]
    elif "anyOf" in schema:
        schema["anyOf"] = [*schema["anyOf"], {"type": "null"}]
    if "enum" in schema:
        schema["enum"] = [*schema["enum"], None]


@dataclass(frozen=True)
class CrdVersion:
    """One served version of one CRD, with its converted schema."""

    group: str
    version: str
    kind: str
    namespaced: bool
    served: bool
    schema: Schema  # strict_schema of the version's openAPIV3Schema
    openapi: Schema = field(default_factory=dict, compare=False)  # as the CRD has it, CEL rules included
    path: Path = field(default=Path(), compare=False)  # the file it was read from
    release: str | None = field(default=None, compare=False)  # the project's release, when it says

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}"


def crd_files(source: Path) -> list[Path]:
    """A CRD file, or every YAML/JSON file in a folder (a Kueue release, `kubectl get crd -o yaml`)."""
    if source.is_dir():
        return sorted(p for p in source.iterdir() if p.suffix in (".yaml", ".yml", ".json"))
    return [source]


def load_crds(source: Path) -> dict[tuple[str, str], CrdVersion]:
    """(apiVersion, kind) -> CrdVersion, for every CRD in the file or folder (a List of CRDs too);
    every other document (a release manifest's Deployment, RBAC, ...) only names the release."""
    found: dict[tuple[str, str], CrdVersion] = {}
    for path in crd_files(source):
        try:
            docs = manifest_documents(path)
            release = release_of(docs)
            for doc in (d for d in docs if d.get("kind") == "CustomResourceDefinition"):
                found.update(_versions(doc, path, crd_release(doc) or release))
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            raise InputError(
                [Problem(path, line, col, "crd", f"--crd: not readable YAML: {err}", CRD_HINT)]
            ) from None
        except (KeyError, TypeError, AttributeError) as err:
            raise InputError(
                [Problem(path, 1, 1, "crd", f"--crd: a CRD here lacks {err}", CRD_HINT)]
            ) from None
        except PatternError as err:
            raise InputError([Problem(path, 1, 1, "crd", f"--crd: {err}", CRD_HINT)]) from None
    return found


def _versions(doc: dict[str, Any], path: Path, release: str | None) -> dict[tuple[str, str], CrdVersion]:
    spec = doc["spec"]
    found = {}
    for version in spec["versions"]:
        openapi = version["schema"]["openAPIV3Schema"]
        try:
            schema = strict_schema(openapi)
        except PatternError as err:
            raise PatternError(f"{spec['names']['kind']} {version['name']}: {err}") from None
        crd = CrdVersion(
            group=spec["group"],
            version=version["name"],
            kind=spec["names"]["kind"],
            namespaced=spec["scope"] == "Namespaced",
            served=bool(version.get("served")),
            schema=schema,
            openapi=openapi,
            path=path,
            release=release,
        )
        found[(crd.api_version, crd.kind)] = crd
    return found


def manifest_documents(path: Path) -> list[dict[str, Any]]:
    """Every object of a file, a List's items as objects of their own."""
    docs: list[dict[str, Any]] = []
    for doc in yaml11_documents(path.read_text()):
        if isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List"):
            docs.extend(item for item in doc.get("items") or [] if isinstance(item, dict))
        elif isinstance(doc, dict):
            docs.append(doc)
    return docs


def object_schema(crd: CrdVersion) -> Schema:
    """The schema of one whole object of this CRD version, as it is committed to Git."""
    schema = dict(crd.schema)
    properties = {k: v for k, v in schema.get("properties", {}).items() if k != "status"}
    meta = dict(OBJECT_META)
    if crd.namespaced:
        meta["required"] = ["name", "namespace"]
    else:
        meta["properties"] = {k: v for k, v in OBJECT_META["properties"].items() if k != "namespace"}
    properties.update(
        apiVersion={"const": crd.api_version},
        kind={"const": crd.kind},
        metadata=meta,
    )
    schema["properties"] = properties
    schema["required"] = sorted({*schema.get("required", []), "apiVersion", "kind", "metadata"})
    schema["additionalProperties"] = False
    return schema
