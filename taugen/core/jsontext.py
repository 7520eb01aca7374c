"""JSON for machines, the same bytes on every machine: every command's `-o json`."""

from __future__ import annotations

import json
from typing import Any


def dumps(data: Any) -> str:
    """Two-space indent, keys in the order the command built them, UTF-8 kept, a final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
