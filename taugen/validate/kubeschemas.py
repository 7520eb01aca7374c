"""The schemas `validate --kubeconform` hands kubeconform: the given CRDs', else taugen's own.

Written into a scratch folder for one run, in kubeconform's own layout:

- `crd/{kind}-{group}-{version}.json` (lower case): every version of the `--crd` (and
  `crds:`) CRDs of the tree's groups, converted as kubeconform's `openapi2jsonschema.py`
  converts them with `DENY_ROOT_ADDITIONAL_PROPERTIES` (an object that lists properties is
  closed at every level), except that an object with `x-kubernetes-preserve-unknown-fields`
  stays open, as the API server keeps it (`crd.strict_schema`). Patterns stay RE2: kubeconform
  is Go. A kind of the tree with no given CRD gets taugen's own schema of it (schemas/,
  generated from taugen/api), so kubeconform still checks it: taugen ships no upstream CRD.
- `core/{kind}{-group-version}.json`: the built-in kinds of the tree (Node, PriorityClass, the
  ValidatingAdmissionPolicy and its binding of G3, ...) from kubernetes-validate's strict
  schemas for `--kubernetes-version` (a taugen dependency), each `$ref` inlined so the file
  stands alone; a kind whose definitions are recursive has none and kubeconform skips it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any

from taugen.validate.crd import load_crds, strict_schema
from taugen.validate.schemas import K8S_SCHEMAS, builtin_name, kubernetes_folder, own_schema_path

Key = tuple[str, str]  # (apiVersion, kind)
CRD_FILE = "{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json"
CORE_FILE = "{{ .ResourceKind }}{{ .KindSuffix }}.json"  # kubernetes-validate's names are these
_REFS = ("/api/_definitions.json#/$defs/", "#/$defs/")  # from a kind's file, inside _definitions


class Recursive(Exception):
    """A definition that contains itself: no standalone file can hold it."""


def write_schemas(
    folder: Path, kinds: Iterable[Key], crds: tuple[Path, ...], kubernetes_version: str
) -> list[str]:
    """The schemas of `kinds` in `folder`; the kubeconform `-schema-location`s that find them."""
    wanted = set(kinds)
    groups = {k[0].rpartition("/")[0] for k in wanted}
    given = {k: crd.openapi for source in crds for k, crd in load_crds(source).items() if crd.group in groups}
    (folder / "crd").mkdir(parents=True, exist_ok=True)
    for (api_version, kind), schema in sorted(given.items()):
        (folder / "crd" / _crd_name(api_version, kind)).write_text(json.dumps(strict_schema(schema)))
    own = {k: path for k in wanted - given.keys() if (path := own_schema_path(*k)) and path.is_file()}
    for (api_version, kind), path in sorted(own.items()):
        (folder / "crd" / _crd_name(api_version, kind)).write_bytes(path.read_bytes())
    core = write_core_schemas(folder / "core", sorted(wanted - given.keys() - own.keys()), kubernetes_version)
    return [f"{folder}/crd/{CRD_FILE}", core]


def _crd_name(api_version: str, kind: str) -> str:
    group, _, version = api_version.rpartition("/")
    return f"{kind}-{group}-{version}.json".lower()


def write_core_schemas(folder: Path, kinds: Iterable[Key], kubernetes_version: str) -> str:
    """The built-in kinds among `kinds` in `folder`, standalone; their -schema-location."""
    folder.mkdir(parents=True, exist_ok=True)
    root = files("kubernetes_validate").joinpath(K8S_SCHEMAS, kubernetes_folder(kubernetes_version))
    definitions = json.loads(root.joinpath("_definitions.json").read_text())["$defs"]
    for api_version, kind in kinds:
        source = root.joinpath(builtin_name(api_version, kind))
        if not source.is_file():
            continue
        try:
            schema = inlined(json.loads(source.read_text()), definitions, ())
        except Recursive:
            continue
        for key in ("$id", "$schema"):  # as the kit's own: no identifier to resolve against
            schema.pop(key, None)
        (folder / builtin_name(api_version, kind)).write_text(json.dumps(schema))
    return f"{folder}/{CORE_FILE}"


def inlined(node: Any, definitions: dict[str, Any], seen: tuple[str, ...]) -> Any:
    """`node` with every `$ref` into kubernetes-validate's definitions replaced by its target."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        rest = {k: inlined(v, definitions, seen) for k, v in node.items() if k != "$ref"}
        if isinstance(ref, str) and ref.startswith(_REFS):
            name = ref.rpartition("/")[2]
            if name in seen:
                raise Recursive(name)
            return {**inlined(definitions[name], definitions, (*seen, name)), **rest}
        return rest if "$ref" not in node else {**rest, "$ref": ref}
    if isinstance(node, list):
        return [inlined(v, definitions, seen) for v in node]
    return node
