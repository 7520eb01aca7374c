"""KAI's GPU quota history in a committed queues.yaml (R35): the parent Queue's total, which a
build may not go below (R26); a Queue's quota covers every class at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taugen.schedulers.committed import as_dict, count, name_of


def kai_total(doc: dict[str, Any], queue: str, path: Path) -> int:
    if doc.get("kind") != "Queue" or name_of(doc) != queue:
        return 0
    resources = as_dict(as_dict(doc.get("spec")).get("resources"))
    return count(as_dict(resources.get("gpu")).get("quota", 0), path)
