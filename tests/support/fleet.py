"""A MultiKueue project in a temporary folder (SPEC §11): the example's fleet-hub in front of
westus3-dev and westus2-dev, their inventories copied from examples/, the project as text so
that a test knows every line and column."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import REPO

WORKER = """  - name: {name}
    inventory: {inventory}
    clusterQueue: taugrid-dev
    tenants:
      - namespace: team-research
"""
INVENTORIES = {
    "westus3-dev": "examples/westus3-dev/nodes.json",
    "westus2-dev": "examples/westus2-dev/inventory.yaml",
    "fleet-hub": "examples/fleet-hub/inventory.yaml",
}
FLEET = """multikueue:
  manager: fleet-hub
  workers: [westus3-dev, westus2-dev]
  kubeconfigSecrets: {westus3-dev: w3-secret}
"""


def fleet_project(root: Path, clusters: str | None = None, fleet: str = FLEET, extra: str = "") -> Path:
    """The project file; `clusters` replaces the three clusters' text (WORKER per cluster)."""
    for source in INVENTORIES.values():
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / source, root / source)
    listed = clusters or "".join(WORKER.format(name=n, inventory=i) for n, i in INVENTORIES.items())
    text = f"apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\nclusters:\n{listed}{extra}{fleet}"
    path = root / "taugen.yaml"
    path.write_text(text)
    return path
