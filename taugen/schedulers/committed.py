"""Reading a committed queue file's documents (R35): never trusted, every value checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taugen.core.errors import InputError, Problem
from taugen.core.quantity import Quantity, QuantityError
from taugen.models.lock import QUOTA_MAX

RESTORE = "restore taugen.lock from Git (`git checkout HEAD -- taugen.lock`), or pass --allow-quota-decrease"


def unreadable(path: Path, why: str) -> InputError:
    message = f"taugen.lock has no entry for this cluster and its committed queues cannot be read: {why}"
    return InputError([Problem(path, 0, 0, "R35", message, RESTORE)])


def count(value: Any, path: Path) -> int:
    try:
        quantity = Quantity.parse(value if isinstance(value, int | str) else str(value))
    except QuantityError as err:
        raise unreadable(path, f"GPU quota {value!r}: {err}") from None
    return min(max(int(quantity.value), 0), QUOTA_MAX)  # a committed file is read, never trusted


def name_of(doc: dict[str, Any]) -> Any:
    return as_dict(doc.get("metadata")).get("name")


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
