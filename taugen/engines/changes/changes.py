"""What changed: objects added or removed, and the field changes of the others (deepdiff)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from deepdiff import DeepDiff
from deepdiff.helper import NotPresent

from taugen.engines.changes.normalize import FieldPath, normal, orders
from taugen.engines.changes.objects import Identity, PlacedObject

ObjectAction = Literal["add", "change", "remove"]
MARKS: dict[ObjectAction, str] = {
    "add": "+",
    "change": "~",
    "remove": "-",
}  # a change's mark, every rendering
FieldAction = Literal["added", "removed", "changed", "reordered"]
# the order a reviewer reads: queues and quota first, then what they stand on
KIND_ORDER: tuple[str, ...] = ("ClusterQueue", "ResourceFlavor", "Topology", "LocalQueue")
KIND_ORDER += ("WorkloadPriorityClass", "PriorityClass", "Node", "ConfigMap")
_ACTIONS: dict[str, FieldAction] = {
    "values_changed": "changed",
    "type_changes": "changed",
    "dictionary_item_added": "added",
    "dictionary_item_removed": "removed",
    "iterable_item_added": "added",
    "iterable_item_removed": "removed",
    "set_item_added": "added",
    "set_item_removed": "removed",
}


@dataclass(frozen=True)
class FieldChange:
    path: FieldPath  # in the normal shape: list items by name, e.g. (..., "flavors", "taugrid-a", ...)
    action: FieldAction
    old: Any = None
    new: Any = None
    member: bool = False  # an item of a set or list (a tenant, a taint), not a field of a map


@dataclass(frozen=True)
class ObjectChange:
    ident: Identity
    action: ObjectAction
    old: Mapping[str, Any] | None
    new: Mapping[str, Any] | None
    fields: tuple[FieldChange, ...] = ()


def compare(
    base: Mapping[Identity, PlacedObject], head: Mapping[Identity, PlacedObject]
) -> list[ObjectChange]:
    changes: list[ObjectChange] = []
    for ident in sorted(base.keys() | head.keys(), key=reading_order):
        old, new = base.get(ident), head.get(ident)
        if new is None and old is not None:
            changes.append(ObjectChange(ident, "remove", old.obj, None))
        elif old is None and new is not None:
            changes.append(ObjectChange(ident, "add", None, new.obj))
        elif old is not None and new is not None and old.obj is not new.obj and old.obj != new.obj:
            fields = field_changes(ident.kind, old.obj, new.obj)
            if fields:
                changes.append(ObjectChange(ident, "change", old.obj, new.obj, tuple(fields)))
    return changes


def reading_order(ident: Identity) -> tuple[str, int, str, str, str]:
    rank = KIND_ORDER.index(ident.kind) if ident.kind in KIND_ORDER else len(KIND_ORDER)
    return (ident.cluster, rank, ident.kind, ident.namespace, ident.name)


def field_changes(kind: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[FieldChange]:
    # threshold 0: always pair keys, never report a whole map as replaced when few keys are shared
    diff = DeepDiff(normal(old), normal(new), view="tree", verbose_level=2, threshold_to_diff_deeper=0)
    found = [
        FieldChange(
            _path(level.path(output_format="list")),
            _ACTIONS[report],
            _value(level.t1),
            _value(level.t2),
            report.startswith(("set_item", "iterable_item")),
        )
        for report, levels in diff.items()
        if report in _ACTIONS
        for level in levels
    ]
    found.extend(_reorders(kind, old, new))
    return sorted(found, key=lambda c: ([str(p) for p in c.path], c.action, str(c.old), str(c.new)))


def _path(steps: list[Any]) -> FieldPath:
    return tuple(s for s in steps if s is not None)  # a set item's path ends in None


def _value(value: Any) -> Any:
    return None if isinstance(value, NotPresent) else value


def _reorders(kind: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[FieldChange]:
    """Order changes of the lists Kueue reads in order, judged on the names both sides keep:
    adding or removing an item is reported as such, not as a reordering."""
    before, after = orders(kind, old), orders(kind, new)
    for path in sorted(before.keys() & after.keys(), key=str):
        kept = set(before[path]) & set(after[path])
        if [n for n in before[path] if n in kept] != [n for n in after[path] if n in kept]:
            yield FieldChange(path, "reordered", before[path], after[path])
