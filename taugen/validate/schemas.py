"""Where each kind's schema comes from: --crd files, taugen's own schemas, kubernetes-validate."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource

from taugen.errors import TaugenError
from taugen.input_schemas import SCHEMA_DIR
from taugen.validate.crd import load_crds, object_schema

DEFAULT_KUBERNETES_VERSION = "1.33"
_K8S_SCHEMAS = "kubernetes-json-schema"


class UnknownKubernetesVersion(TaugenError):
    """--kubernetes-version names a version kubernetes-validate has no schemas for."""


class SchemaStore:
    """(apiVersion, kind) -> a strict validator and where its schema came from."""

    def __init__(self, kubernetes_version: str = DEFAULT_KUBERNETES_VERSION, crds: tuple[Path, ...] = ()):
        self.k8s_folder = _kubernetes_folder(kubernetes_version)
        self.crd_validators: dict[tuple[str, str], Validator] = {}
        for source in crds:
            for key, crd in load_crds(source).items():
                self.crd_validators[key] = Draft7Validator(object_schema(crd))

    def lookup(self, api_version: str, kind: str) -> tuple[Validator, str] | None:
        key = (api_version, kind)
        if key in self.crd_validators:
            return self.crd_validators[key], "crd"
        own = _own_validator(api_version, kind)
        if own is not None:
            return own, "taugen"
        builtin = _builtin_validator(self.k8s_folder, api_version, kind)
        return (builtin, "kubernetes") if builtin is not None else None


def own_schema_path(api_version: str, kind: str) -> Path | None:
    """schemas/<group>/<kind>_<version>.json: kubeconform's CRDs-catalog layout."""
    group, _, version = api_version.rpartition("/")
    if not group:
        return None
    return SCHEMA_DIR / group / f"{kind.lower()}_{version}.json"


@cache
def _own_validator(api_version: str, kind: str) -> Validator | None:
    path = own_schema_path(api_version, kind)
    if path is None or not path.is_file():
        return None
    schema = json.loads(path.read_text())
    cls: Any = validator_for(schema, default=Draft202012Validator)
    validator: Validator = cls(schema)
    return validator


def _kubernetes_folder(version: str) -> str:
    wanted = version.removeprefix("v")
    root = files("kubernetes_validate").joinpath(_K8S_SCHEMAS)
    shipped = sorted(p.name for p in root.iterdir() if p.name.endswith("-local-strict"))
    matches = [name for name in shipped if re.match(rf"^v{re.escape(wanted)}(\.\d+)?-local-strict$", name)]
    if not matches:
        known = ", ".join(n.removeprefix("v").removesuffix(".0-local-strict") for n in shipped)
        raise UnknownKubernetesVersion(f"--kubernetes-version {version}: no schemas for it; known: {known}")
    return matches[-1]


@cache
def _builtin_validator(folder: str, api_version: str, kind: str) -> Validator | None:
    # kubernetes-validate's naming: rbac.authorization.k8s.io/v1 -> rbac-v1; v1 -> v1
    suffix = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    root = files("kubernetes_validate").joinpath(_K8S_SCHEMAS, folder)
    schema_file = root.joinpath(f"{kind.lower()}-{suffix}.json")
    if not schema_file.is_file():
        return None
    schema = json.loads(schema_file.read_text())
    kind_enum = schema.get("properties", {}).get("kind", {}).get("enum")
    if kind_enum is not None and kind not in kind_enum:
        return None
    return Draft202012Validator(schema, registry=_registry(folder))


@cache
def _registry(folder: str) -> Registry[Any]:
    root = files("kubernetes_validate").joinpath(_K8S_SCHEMAS, folder)
    definitions = json.loads(root.joinpath("_definitions.json").read_text())
    resource: Resource[Any] = Resource.from_contents(definitions)
    return resource @ Registry()
