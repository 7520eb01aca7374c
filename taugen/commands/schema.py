"""`taugen schema --out DIR`: every JSON Schema taugen ships, written through taugen.write.safewrite.

The input kinds', Kueue's, node-feature-discovery's and KAI's, as `taugen/schemas/` holds them.
DIR and every folder and file in it must be a real folder or regular file (or missing): a
symbolic link, a device or a file where a folder goes is refused, nothing written (issue 17).
"""

from __future__ import annotations

import stat
from pathlib import Path

from taugen.api.kai import kai_schema_files
from taugen.api.kueue import kueue_schema_files
from taugen.api.kueue.schema import GROUP
from taugen.api.nfd import nfd_schema_files
from taugen.models.schemas import schema_files
from taugen.write.safewrite import write_files


def all_schema_files() -> dict[str, bytes]:
    """Path relative to DIR -> JSON text."""
    return schema_files() | kueue_schema_files() | nfd_schema_files() | kai_schema_files()


def export_schemas(folder: Path) -> list[Path]:
    """Write them all; Kueue's that taugen no longer ships are removed (as write_kueue_schemas)."""
    files = all_schema_files()
    written = write_files(folder, files)
    for stale in sorted((folder / GROUP).glob("*.json")):
        if stale.relative_to(folder).as_posix() not in files and stat.S_ISREG(stale.lstat().st_mode):
            stale.unlink()
    return written
