"""The repository's lab project (tests/support/runs.PROJECT) copied, with a cluster entry's fields
and profiles of a test's own, and built: the projects the simulate tests and the real-Kueue
differentials play their runs on."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from taugen.commands.build import BuildOptions, build
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT


def lab_project(
    root: Path, cluster: Mapping[str, Any] | None = None, profiles: Mapping[str, Any] | None = None
) -> Path:
    """The lab project copied to `root`, its cluster's entry updated with `cluster`, `profiles`
    (name -> WorkloadProfile) written beside its own, built; its taugen.yaml."""
    shutil.copytree(PROJECT, root, dirs_exist_ok=True)
    for name, doc in (profiles or {}).items():
        write_yaml(root / "profiles" / f"{name}.yaml", doc)
    if cluster:
        doc = yaml.safe_load((root / "taugen.yaml").read_text())
        doc["clusters"][0].update(cluster)
        write_yaml(root / "taugen.yaml", doc)
    build(BuildOptions(project_file=root / "taugen.yaml"))
    return root / "taugen.yaml"
