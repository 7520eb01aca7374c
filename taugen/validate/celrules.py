"""Where CEL rules come from: the upstream CRDs the user gives (issue 30).

taugen ships no upstream CRD. A kind's rules are those of the CRD version given for it with
`--crd` or `crds:` in taugen.yaml, its `openAPIV3Schema` as it is, `x-kubernetes-validations`
included. A kind with no given CRD is checked by taugen's own rules instead (taugen/api), and
the report says which upstream rules were not evaluated.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from taugen.validate.crd import CrdVersion

Schema = dict[str, Any]
Key = tuple[str, str]  # (apiVersion, kind)
RULES_KEY = "x-kubernetes-validations"


class RuleSource:
    """(apiVersion, kind) -> the openAPIV3Schema with its rules, of a given CRD."""

    def __init__(self, crds: Mapping[Key, CrdVersion] | None = None) -> None:
        self._crds = dict(crds or {})

    def schema(self, key: Key) -> Schema | None:
        crd = self._crds.get(key)
        return crd.openapi if crd is not None else None

    def given_kinds(self) -> frozenset[Key]:
        """The kinds whose upstream rules speak (their CRD was given)."""
        return frozenset(self._crds)


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
