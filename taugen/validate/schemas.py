"""Where each kind's schema comes from: --crd files, taugen's own schemas, kubernetes-validate."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import jsonschema_rs
from jsonschema import Draft7Validator, Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource

from taugen.api.schema import schema_file
from taugen.core.choices import DEFAULT_KUBERNETES_VERSION
from taugen.core.errors import Problem, TaugenError
from taugen.models.schemas import SCHEMA_DIR
from taugen.validate.celrules import RuleSource
from taugen.validate.crd import load_crds, object_schema
from taugen.validate.findings import Finding
from taugen.validate.patterns import FAST_KEYWORDS, uses_pattern_properties, with_re2_patterns
from taugen.validate.releases import KUEUE_RELEASE, other_release, where_said

# python-jsonschema reads a pattern with Python's `re`; these read it as RE2 does (patterns.py)
_DRAFT7: Any = with_re2_patterns(Draft7Validator)
_DRAFT2020: Any = with_re2_patterns(Draft202012Validator)
K8S_SCHEMAS = "kubernetes-json-schema"


class UnknownKubernetesVersion(TaugenError):
    """--kubernetes-version names a version kubernetes-validate has no schemas for."""


SchemaSource = Literal["crd", "taugen", "kubernetes"]  # --crd, schemas/, Kubernetes' own


@dataclass(frozen=True)
class Checker:
    """A schema's validators: jsonschema-rs answers "valid?" fast; python-jsonschema, asked only
    about an invalid object, says exactly what is wrong and where."""

    python: Validator
    fast: Any | None  # a jsonschema_rs validator, or None when it cannot compile the schema
    source: SchemaSource

    def errors(self, obj: Any) -> list[ValidationError]:
        if self.fast is not None:
            try:
                if self.fast.is_valid(obj):
                    return []
            except (ValueError, TypeError):  # a value jsonschema-rs cannot read (a datetime)
                pass
        return list(self.python.iter_errors(obj))


class SchemaStore:
    """(apiVersion, kind) -> the checker of its schema, from --crd, taugen or kubernetes-validate."""

    def __init__(self, kubernetes_version: str = DEFAULT_KUBERNETES_VERSION, crds: tuple[Path, ...] = ()):
        self.k8s_folder = kubernetes_folder(kubernetes_version)
        self.crds = {key: crd for source in crds for key, crd in load_crds(source).items()}
        self.crd_checkers: dict[tuple[str, str], Checker] = {}
        for key, crd in self.crds.items():
            schema = object_schema(crd)
            fast = _fast(schema, partial(jsonschema_rs.Draft7Validator, schema, keywords=FAST_KEYWORDS))
            self.crd_checkers[key] = Checker(_DRAFT7(schema), fast, "crd")
        self.rules = RuleSource(self.crds)  # the CEL rules of these CRDs (celrules.py)

    def release_findings(self) -> list[Finding]:
        """A warning for each file of Kueue CRDs from a release other than the one taugen follows."""
        files = {
            crd.path: release
            for crd in self.crds.values()
            if (release := other_release(crd.group, crd.release))
        }
        return [
            Finding(
                Problem(
                    path,
                    *where_said(path, release),
                    "crd",
                    f"these Kueue CRDs are Kueue {release}'s; taugen follows Kueue {KUEUE_RELEASE}",
                    "fields and rules may differ: give the CRDs of the Kueue your cluster runs, "
                    "and check docs/validate.md for what taugen's own checks assume",
                    "warning",
                ),
                "CustomResourceDefinition",
            )
            for path, release in sorted(files.items())
        ]

    def lookup(self, api_version: str, kind: str) -> Checker | None:
        key = (api_version, kind)
        if key in self.crd_checkers:
            return self.crd_checkers[key]
        return _own_checker(api_version, kind) or _builtin_checker(self.k8s_folder, api_version, kind)


def _fast(schema: Any, make: Callable[[], Any]) -> Any | None:
    """jsonschema-rs's validator of `schema` (its patterns read by RE2), or None: python-jsonschema
    alone checks a schema jsonschema-rs does not take, or one with `patternProperties`, whose
    patterns jsonschema-rs would read with its own engine (patterns.py)."""
    if uses_pattern_properties(schema):
        return None
    try:
        return make()
    except (ValueError, TypeError):  # a schema jsonschema-rs does not take: python-jsonschema alone
        return None


NAME_MAX = 255  # bytes of one file name on Linux and macOS: a longer one cannot exist


def own_schema_path(api_version: str, kind: str) -> Path | None:
    """schemas/<group>/<kind>_<version>.json: kubeconform's CRDs-catalog layout; None for a kind
    no file of ours can be named after (a 3,000-character kind: asking the disk raises)."""
    if "/" not in api_version:
        return None
    name = schema_file(api_version, kind)
    return SCHEMA_DIR / name if _nameable(name) else None


def _nameable(relative: str) -> bool:
    return all(len(part.encode()) <= NAME_MAX for part in relative.split("/"))


@cache
def _own_checker(api_version: str, kind: str) -> Checker | None:
    path = own_schema_path(api_version, kind)
    if path is None or not path.is_file():
        return None
    schema = json.loads(path.read_text())
    cls: Any = with_re2_patterns(validator_for(schema, default=Draft202012Validator))
    fast = _fast(schema, lambda: jsonschema_rs.validator_for(schema, keywords=FAST_KEYWORDS))
    return Checker(cls(schema), fast, "taugen")


def kubernetes_folder(version: str) -> str:
    wanted = version.removeprefix("v")
    root = files("kubernetes_validate").joinpath(K8S_SCHEMAS)
    shipped = sorted(p.name for p in root.iterdir() if p.name.endswith("-local-strict"))
    matches = [name for name in shipped if re.fullmatch(rf"v{re.escape(wanted)}(\.\d+)?-local-strict", name)]
    if not matches:
        known = ", ".join(n.removeprefix("v").removesuffix(".0-local-strict") for n in shipped)
        raise UnknownKubernetesVersion(f"--kubernetes-version {version}: no schemas for it; known: {known}")
    return matches[-1]


def builtin_name(api_version: str, kind: str) -> str:
    """kubernetes-validate's file name (kubeconform's `{{.ResourceKind}}{{.KindSuffix}}`):
    rbac.authorization.k8s.io/v1 Role -> role-rbac-v1.json; v1 Node -> node-v1.json."""
    suffix = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    return f"{kind.lower()}-{suffix}.json"


@cache
def _builtin_checker(folder: str, api_version: str, kind: str) -> Checker | None:
    root = files("kubernetes_validate").joinpath(K8S_SCHEMAS, folder)
    name = builtin_name(api_version, kind)
    schema_file = root.joinpath(name)
    if not _nameable(name) or not schema_file.is_file():
        return None
    schema = json.loads(schema_file.read_text())
    kind_enum = schema.get("properties", {}).get("kind", {}).get("enum")
    if kind_enum is not None and kind not in kind_enum:
        return None
    definitions = _definitions(folder)
    registry = jsonschema_rs.Registry([(definitions["$id"], definitions)])
    make = partial(jsonschema_rs.validator_for, schema, registry=registry, keywords=FAST_KEYWORDS)
    fast = None if _definitions_use_pattern_properties(folder) else _fast(schema, make)
    return Checker(_DRAFT2020(schema, registry=_registry(folder)), fast, "kubernetes")


@cache
def _definitions(folder: str) -> dict[str, Any]:
    root = files("kubernetes_validate").joinpath(K8S_SCHEMAS, folder)
    definitions: dict[str, Any] = json.loads(root.joinpath("_definitions.json").read_text())
    return definitions


@cache
def _definitions_use_pattern_properties(folder: str) -> bool:
    return uses_pattern_properties(_definitions(folder))


@cache
def _registry(folder: str) -> Registry[Any]:
    resource: Resource[Any] = Resource.from_contents(_definitions(folder))
    return resource @ Registry()
