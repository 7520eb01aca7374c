"""The fixture project of explain, inventory and drift (issue 11): one fleet, both forms, live lists."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from taugen.commands.build import BuildOptions, build

CASES = Path(__file__).resolve().parents[1] / "cases" / "views"
PROJECT = CASES / "project" / "taugen.yaml"
SYNCED = CASES / "live" / "synced.yaml"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "views"
CLUSTERS = ("native", "kube")  # ClusterInventory and `kubectl get nodes -o yaml`
NOW = datetime(2026, 11, 28, 13, 0, 0, tzinfo=UTC)


def built_copy(tmp: Path) -> Path:
    """The fixture project copied into tmp and built there (never in place); its project file."""
    shutil.copytree(PROJECT.parent, tmp / "project")
    project = tmp / "project" / "taugen.yaml"
    build(BuildOptions(project_file=project, now=NOW))
    return project
