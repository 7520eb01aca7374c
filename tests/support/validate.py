"""Validation of files not yet written: what the tests hand the build's gate and `validate`
(issue 18: test-only code lives in the tests; the build passes the objects it compiled)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from taugen.emit.canonical import KUSTOMIZATION
from taugen.load.document import fast_documents
from taugen.validate.gate import check_tree
from taugen.validate.resources import Resource


def resources_from_bytes(files: Mapping[Path, bytes]) -> list[Resource]:
    """The objects of files given as bytes, as `taugen validate` reads them."""
    return [Resource(d) for path, content in files.items() for d in fast_documents(path, content.decode())]


def check_files(root: Path, clusters: Mapping[str, Mapping[str, bytes]]) -> None:
    """check_tree for files given as bytes (kustomization.yaml aside)."""
    parsed = {
        name: (
            {
                rel: [d.data for d in fast_documents(Path(rel), content.decode())]
                for rel, content in files.items()
                if rel != KUSTOMIZATION
            },
            files,
        )
        for name, files in clusters.items()
    }
    check_tree(root, parsed)
