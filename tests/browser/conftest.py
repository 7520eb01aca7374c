"""The example project, and a changed copy of it, for the report's browser tests (issue 12)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from tests.conftest import REPO

INVENTORY = "examples/eastus-prod/inventory.yaml"
FABRIC = "net.unbounded-cloud.io/network-domain"
REMOVED = "aks-h100-27182818-vmss000000"  # was in ib-fabric-1
MOVED = "aks-h100-27182818-vmss000001"  # ib-fabric-1 -> ib-fabric-2
ADDED = "aks-h100-27182818-vmss000009"  # new, in ib-fabric-2


def copy_example(target: Path) -> Path:
    """The example project with its committed out/ and lock; returns the project file."""
    for name in ("taugen.yaml", "taugen.lock"):
        shutil.copy(REPO / name, target / name)
    for name in ("examples", "out"):
        shutil.copytree(REPO / name, target / name)
    return target / "taugen.yaml"


def change_fleet(project: Path) -> None:
    """Remove one H100 host, move one to another fabric, add one; then build (R26 keeps the quota)."""
    path = project.parent / INVENTORY
    doc: dict[str, Any] = yaml.safe_load(path.read_text())
    nodes = [n for n in doc["nodes"] if n["name"] != REMOVED]
    for node in nodes:
        if node["name"] == MOVED:
            node["labels"][FABRIC] = "ib-fabric-2"
    added = copy.deepcopy(next(n for n in nodes if n["name"] == MOVED))  # no YAML aliases
    added["name"] = ADDED
    doc["nodes"] = [*nodes, added]
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    build(BuildOptions(project))


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_example(tmp_path_factory.mktemp("example"))


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A changed copy; its base is `base/`, the committed out/ before the change."""
    root = tmp_path_factory.mktemp("changed")
    project = copy_example(root)
    shutil.copytree(root / "out", root / "base")
    change_fleet(project)
    return project
