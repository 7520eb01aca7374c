"""Limits on input size and shape (issue 7): refuse hostile YAML before it costs anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def check_size(path: Path, size: int) -> None:
    """Refuse a file larger than the document size limit, before reading it."""


def check_data(path: Path, text: str, data: Any) -> None:
    """Refuse nesting deeper than the depth limit and more aliases than the alias limit."""
