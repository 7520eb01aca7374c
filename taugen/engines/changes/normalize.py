"""Objects in a comparable shape: list items paired by their name, order kept aside.

Kueue reads order in two places only — the levels of a Topology (broad to narrow) and the
flavors of a resource group (tried first to last) — so `orders` keeps those two, and every
other list compares as a set: reordering tenants, taints or covered resources is no change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from taugen.core.errors import InputError
from taugen.engines.changes.defaults import without_cluster_fields
from taugen.load.compiled import tree_documents

Key = str | int
FieldPath = tuple[Key, ...]
_ITEM_KEYS = ("name", "nodeLabel")  # flavors, resources, catalog profiles; Topology levels
_EMBEDDED = (".yaml", ".yml", ".json")  # ConfigMap data that is itself a document (the catalog)


def normal(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The object without its identity and what a cluster adds to it (defaults.py), lists of
    named items as maps, other lists as sets."""
    obj = without_cluster_fields(obj)
    body = {str(k): v for k, v in obj.items() if k not in ("apiVersion", "kind", "metadata")}
    meta = obj.get("metadata")
    if isinstance(meta, Mapping):
        rest = {str(k): v for k, v in meta.items() if k not in ("name", "namespace")}
        body = {"metadata": rest, **body} if rest else body
    if obj.get("kind") == "ConfigMap" and isinstance(body.get("data"), Mapping):
        body["data"] = {str(k): _embedded(str(k), v) for k, v in body["data"].items()}
    return {k: _normal(v) for k, v in body.items()}


def orders(kind: str, obj: Mapping[str, Any]) -> dict[FieldPath, list[str]]:
    """The lists whose order Kueue reads, as names in order, by their path in the object."""
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        return {}
    if kind == "Topology":
        return {("spec", "levels"): _names(spec.get("levels"), "nodeLabel")}
    if kind == "ClusterQueue" and isinstance(spec.get("resourceGroups"), list):
        groups = spec["resourceGroups"]
        return {
            ("spec", "resourceGroups", i, "flavors"): _names(g.get("flavors"), "name")
            for i, g in enumerate(groups)
            if isinstance(g, Mapping)
        }
    return {}


def _names(items: Any, key: str) -> list[str]:
    return (
        [str(i[key]) for i in items if isinstance(i, Mapping) and key in i] if isinstance(items, list) else []
    )


def _embedded(name: str, value: Any) -> Any:
    if not (isinstance(value, str) and name.endswith(_EMBEDDED)):
        return value
    try:
        parsed = tree_documents(Path(name), value)
    except InputError:
        return value
    return parsed[0] if len(parsed) == 1 and isinstance(parsed[0], Mapping | list) else value


def _normal(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _normal(v) for k, v in value.items()}
    if not isinstance(value, list):
        return value
    key = _item_key(value)
    if key is not None:
        return {str(i[key]): _normal({k: v for k, v in i.items() if k != key}) for i in value}
    if any(isinstance(i, Mapping) and any(isinstance(v, Mapping | list) for v in i.values()) for i in value):
        return [_normal(i) for i in value]  # e.g. resource groups: paired by position
    return frozenset(_flat(i) for i in value)


def _item_key(items: list[Any]) -> str | None:
    if not items or not all(isinstance(i, Mapping) for i in items):
        return None
    for key in _ITEM_KEYS:
        if all(isinstance(i.get(key), str) for i in items) and len({i[key] for i in items}) == len(items):
            return key
    if all("key" in i and "values" in i for i in items):  # matchExpressions
        return "key" if len({str(i["key"]) for i in items}) == len(items) else None
    return None


def _flat(item: Any) -> Any:
    """A list item as one hashable word: `sku=gpu:NoSchedule` for a taint or toleration."""
    if not isinstance(item, Mapping):
        return item if isinstance(item, str | int | float | bool) or item is None else json.dumps(item)
    if "key" in item and set(item) <= {"key", "value", "effect", "operator", "tolerationSeconds"}:
        text = str(item["key"]) + (f"={item['value']}" if "value" in item else "")
        text += f" ({item['operator']})" if item.get("operator") == "Exists" else ""
        text += f":{item['effect']}" if item.get("effect") else ""
        return text + (f" for {item['tolerationSeconds']}s" if "tolerationSeconds" in item else "")
    return ", ".join(f"{k}={item[k]}" for k in sorted(item, key=str))
