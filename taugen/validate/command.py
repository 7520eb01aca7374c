"""`taugen validate` as a core function: paths in, a report out (the CLI prints it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.load.project import load_project
from taugen.validate.engine import Report, validate
from taugen.validate.findings import Finding
from taugen.validate.resources import load_resources, manifest_files
from taugen.validate.schemas import DEFAULT_KUBERNETES_VERSION, SchemaStore


@dataclass(frozen=True)
class ValidateOptions:
    paths: tuple[Path, ...] = ()
    project_file: Path = Path("taugen.yaml")
    crds: tuple[Path, ...] = ()
    kubernetes_version: str = DEFAULT_KUBERNETES_VERSION


def default_paths(project_file: Path) -> tuple[Path, ...]:
    """No PATH given: every cluster folder of the project's output tree."""
    loaded = load_project(project_file)
    root = loaded.output_root(None)
    return tuple(root / c.name for c in loaded.project.clusters)


def validate_paths(options: ValidateOptions) -> Report:
    paths = options.paths or default_paths(options.project_file)
    files, listing = manifest_files(list(paths))
    loaded = load_resources(files)
    store = SchemaStore(options.kubernetes_version, options.crds)
    unreadable = [Finding(p, "file") for p in [*listing, *loaded.problems]]
    return validate(loaded.resources, store, len(files), unreadable)
