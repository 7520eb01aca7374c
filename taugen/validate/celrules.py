"""Where CEL rules come from: the CRDs bundled in taugen/crds/ and `--crd` files (issue 20).

A kind's rules are its CRD version's `openAPIV3Schema` as it is, `x-kubernetes-validations`
included. A `--crd` file replaces a bundled CRD of the same apiVersion and kind. Nothing is
read before an object asks: a bundled file is parsed only when it holds rules and the tree
holds an object of its group (a build's gate reads the Kueue CRDs, never LWS's 1.3 MB).
"""

from __future__ import annotations

import copy
import re
from functools import cache
from pathlib import Path
from typing import Any

from taugen import PACKAGE
from taugen.validate.crd import crd_documents, crd_files

Schema = dict[str, Any]
Key = tuple[str, str]  # (apiVersion, kind)
BUNDLED = PACKAGE / "crds"
RULES_KEY = "x-kubernetes-validations"
GROUP_LINE = re.compile(r"^  group: *['\"]?([^\s'\"]+)", re.MULTILINE)  # controller-gen's layout


def bundled_files() -> list[Path]:
    return sorted(p for folder in sorted(BUNDLED.iterdir()) if folder.is_dir() for p in crd_files(folder))


@cache
def _bundled_groups() -> dict[Path, frozenset[str]]:
    """Bundled file -> the groups of its CRDs; only files that hold rules."""
    found = {}
    for path in bundled_files():
        text = path.read_text()
        if RULES_KEY in text:
            found[path] = frozenset(GROUP_LINE.findall(text))
    return found


def schemas_of(path: Path) -> dict[Key, Schema]:
    """(apiVersion, kind) -> openAPIV3Schema, for every CRD version in one file."""
    found: dict[Key, Schema] = {}
    for doc in crd_documents(path):
        spec = doc.get("spec") or {}
        for version in spec.get("versions") or []:
            schema = ((version.get("schema") or {}).get("openAPIV3Schema")) or {}
            found[(f"{spec.get('group')}/{version.get('name')}", str(spec["names"]["kind"]))] = schema
    return found


_bundled_schemas = cache(schemas_of)


class RuleSource:
    """(apiVersion, kind) -> the openAPIV3Schema with its rules, bundled or from --crd."""

    def __init__(self, crds: tuple[Path, ...] = ()) -> None:
        self._given = crds
        self._from_given: dict[Key, Schema] | None = None
        self._loaded: dict[Key, Schema] | None = None
        self._groups: set[str] = set()
        self._kinds: frozenset[Key] | None = None

    def schema(self, key: Key) -> Schema | None:
        group = key[0].rpartition("/")[0]
        if not group:
            return None  # a core kind: no CRD
        if self._loaded is None or group not in self._groups:
            self._load(group)
        assert self._loaded is not None
        return self._loaded.get(key)

    def given_kinds(self) -> frozenset[Key]:
        """The (apiVersion, kind) of every CRD version given (--crd): for these the CRD's own
        rules speak, not taugen's checks of the upstream rules (validate/upstream.py)."""
        if self._kinds is None:
            self._kinds = frozenset(k for s in self._given for p in crd_files(s) for k in schemas_of(p))
        return self._kinds

    def _load(self, group: str) -> None:
        self._groups.add(group)
        found: dict[Key, Schema] = {}
        for path, groups in _bundled_groups().items():
            if groups & self._groups:
                found.update(_bundled_schemas(path))
        if self._from_given is None:  # the SchemaStore read them first: a broken file never gets here
            self._from_given = {}
            for path in (p for source in self._given for p in crd_files(source)):
                self._from_given.update(schemas_of(path))
        self._loaded = {**found, **self._from_given}


def rule_sites(schema: Schema) -> Schema | None:
    """The schema cut to the nodes that hold rules or lead to one (the walk reads only these)."""
    out: Schema = {}
    if schema.get(RULES_KEY):
        out[RULES_KEY] = schema[RULES_KEY]
    properties = {k: s for k, sub in (schema.get("properties") or {}).items() if (s := rule_sites(sub))}
    if properties:
        out["properties"] = properties
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict) and (sub := rule_sites(schema[key])):
            out[key] = sub
    return out or None


def child(schema: Schema, key: str | int) -> Schema | None:
    """The schema of one property, map value or list item."""
    if isinstance(key, int):
        items = schema.get("items")
        return items if isinstance(items, dict) else None
    properties = schema.get("properties") or {}
    if key in properties:
        sub: Schema = properties[key]
        return sub
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def defaulted(schema: Schema, value: Any, over: list[str]) -> Any:
    """value as the API server sees it before CEL: nulls of non-nullable fields pruned, the
    schema's defaults applied. A list or map over its maxItems/maxProperties is noted in
    `over` (the schema refuses it, and a rule over it could cost without bound)."""
    if isinstance(value, dict):
        if len(value) > schema.get("maxProperties", len(value)):
            over.append("maxProperties")
        out = {}
        for key, item in value.items():
            sub = child(schema, key)
            if item is None and sub is not None and not sub.get("nullable"):
                continue
            out[key] = item if sub is None else defaulted(sub, item, over)
        for key, sub in (schema.get("properties") or {}).items():
            if key not in out and "default" in sub:
                out[key] = defaulted(sub, copy.deepcopy(sub["default"]), over)
        return out
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            over.append("maxItems")
        items = schema.get("items")
        return [defaulted(items, v, over) for v in value] if isinstance(items, dict) else value
    return value
