"""Diff risks of Kueue's objects (§5): a change that leaves less to admit with."""

from __future__ import annotations

from typing import Any

from taugen.core.quantity import Quantity, QuantityError
from taugen.schedulers.kueue.compile import READY_SLOTS

_SLOTS = ("metadata", "annotations", READY_SLOTS)
_QUOTA_LIMITS = ("nominalQuota", "borrowingLimit")  # less of either is less to admit with


def capacity_lost(kind: str, path: tuple[Any, ...], action: str, old: Any, new: Any) -> bool:
    if kind == "ResourceFlavor" and path == _SLOTS:
        return action == "removed" or _decreased(action, old, new)
    if kind == "Cohort":  # R51: a group's own quota and its limit toward its parent
        return path[:2] == ("spec", "resourceGroups") and _less(path, action, old, new)
    if kind != "ClusterQueue":
        return False
    if path[:1] == ("spec",) and "namespaceSelector" in path:
        return action == "removed"  # a tenant no longer admitted
    if path[:2] != ("spec", "resourceGroups"):
        return False
    return _less(path, action, old, new)


def _less(path: tuple[Any, ...], action: str, old: Any, new: Any) -> bool:
    if action == "removed":
        return path[-1] not in ("borrowingLimit", "lendingLimit")  # without a limit, more to borrow
    return path[-1] in _QUOTA_LIMITS and _decreased(action, old, new)


def _decreased(action: str, old: Any, new: Any) -> bool:
    try:
        return action == "changed" and Quantity.parse(new).value < Quantity.parse(old).value
    except (QuantityError, TypeError):
        return False
