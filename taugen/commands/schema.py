"""`taugen schema --out DIR`: every JSON Schema taugen ships, written through taugen.write.safewrite.

The input kinds', Kueue's, node-feature-discovery's and KAI's, as `schemas/` holds them;
the schemas of kinds taugen no longer ships are removed. DIR and every folder and file in it
must be a real folder or regular file (or missing): a symbolic link, a device or a file where
a folder goes is refused, nothing written (issue 17).
"""

from __future__ import annotations

from pathlib import Path

from taugen.api.kai import kai_schema_files
from taugen.api.kueue import kueue_schema_files
from taugen.api.nfd import nfd_schema_files
from taugen.models.schemas import schema_files
from taugen.write.safewrite import replace_files

__all__ = ["all_schema_files", "export_schemas", "schema_files"]

# What taugen writes: input kinds' at the top, upstream kinds' one folder down per API group.
OWN_FILES = ("*.schema.json", "*/*.json")


def all_schema_files() -> dict[str, bytes]:
    """Path relative to DIR -> JSON text."""
    return schema_files() | kueue_schema_files() | nfd_schema_files() | kai_schema_files()


def export_schemas(folder: Path) -> list[Path]:
    """Write them all, removing the stale ones; the paths written."""
    return replace_files(folder, all_schema_files(), OWN_FILES)
