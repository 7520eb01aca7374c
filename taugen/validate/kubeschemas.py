"""The schemas `validate --kubeconform` hands kubeconform: the upstream CRDs', not taugen's models'.

Written into a scratch folder for one run, in kubeconform's own layout:

- `crd/{kind}-{group}-{version}.json` (lower case): every version of the CRDs bundled in
  taugen/crds and of `--crd` files (a `--crd` one replaces a bundled one), converted as the
  workspace's kit converts them (kubeconform's `openapi2jsonschema.py` with
  `DENY_ROOT_ADDITIONAL_PROPERTIES`: an object that lists properties is closed at every level),
  except that an object with `x-kubernetes-preserve-unknown-fields` stays open, as the API
  server keeps it (`crd.strict_schema`). Patterns stay RE2: kubeconform is Go.
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

from taugen.validate.celrules import GROUP_LINE, bundled_files, schemas_of
from taugen.validate.crd import crd_files, strict_schema
from taugen.validate.schemas import K8S_SCHEMAS, builtin_name, kubernetes_folder

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
    from_crds = crd_schemas({k[0].rpartition("/")[0] for k in wanted}, crds)
    (folder / "crd").mkdir(parents=True, exist_ok=True)
    for (api_version, kind), schema in sorted(from_crds.items()):
        group, _, version = api_version.rpartition("/")
        name = f"{kind}-{group}-{version}.json".lower()
        (folder / "crd" / name).write_text(json.dumps(strict_schema(schema)))
    core = write_core_schemas(folder / "core", sorted(wanted - from_crds.keys()), kubernetes_version)
    return [f"{folder}/crd/{CRD_FILE}", core]


def crd_schemas(groups: set[str], crds: tuple[Path, ...]) -> dict[Key, dict[str, Any]]:
    """(apiVersion, kind) -> openAPIV3Schema: the bundled CRDs of these groups, then --crd's."""
    found: dict[Key, dict[str, Any]] = {}
    for path in bundled_files():
        if groups & set(GROUP_LINE.findall(path.read_text())):
            found.update(schemas_of(path))
    for path in (p for source in crds for p in crd_files(source)):
        found.update(schemas_of(path))
    return found


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
