"""§ validate: build never writes a tree that `taugen validate` would reject."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from taugen.emit import KUSTOMIZATION
from taugen.errors import FoundProblems
from taugen.validate.engine import validate
from taugen.validate.report import render, summary
from taugen.validate.resources import resources_from_bytes
from taugen.validate.schemas import SchemaStore


def check_tree(root: Path, clusters: Mapping[str, Mapping[str, bytes]]) -> None:
    """Validate the compiled files (not yet written); FoundProblems lists every error."""
    files = {
        root / name / rel: content
        for name, files in clusters.items()
        for rel, content in files.items()
        if rel != KUSTOMIZATION
    }
    report = validate(resources_from_bytes(files), SchemaStore(), len(files))
    if not report.valid:
        errors = [f for f in report.findings if f.is_error]
        lines = [*(line for f in errors for line in render(f, Path.cwd())), summary(report)]
        raise FoundProblems("the compiled tree does not validate; nothing was written", lines)
