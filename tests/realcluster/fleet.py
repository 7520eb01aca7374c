"""A generated 1,000-node fleet compiled in every shape taugen writes (issue 31): the benchmark
generator's inventory (benchmarks/generate.py) behind four clusters — `bench` on the Node label
backend with guaranteed tenants (a Kueue cohort, SPEC §10), `bench-nfd` on the nfd backend
(G5), `bench-kai` on the KAI backend (§8), and `hub`, a CPU-only MultiKueue manager with
bench-nfd as its worker (§11) — plus the Argo CD and Flux recipes (G6)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.generate import generate
from tests.support.unit import run_build

NODES = 1000
CLUSTERS = ("bench", "bench-nfd", "bench-kai", "hub")
TREES = (*CLUSTERS, "_argocd", *(f"_flux/{c}" for c in CLUSTERS))

HUB = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: ClusterInventory
metadata:
  name: hub
observedAt: "{observed}"
site: hubregion
nodes:
  - name: hub-cpu-0
    vmSize: Standard_D16s_v5
    allocatable: {{cpu: "16", memory: 64Gi}}
    labels: {{agentpool: system}}
"""

PROJECT = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Project
output: out
clusters:
  - name: bench
    inventory: inventory.yaml
    rules: [values.yaml]
    tenants:
      - namespace: team-llm
        guaranteed: {h200-141gb: 25%, gb200-186gb: 8}
        borrowingLimit: {h200-141gb: 16}
        lendingLimit: {gb200-186gb: 4}
        weight: 2
      - namespace: team-vision
        localQueue: vision
        guaranteed: {h100-80gb: 50%}
      - namespace: team-batch
  - name: bench-nfd
    inventory: inventory.yaml
    rules: [values.yaml]
    nodeLabels: nfd
    clusterQueue: taugrid-fleet
    tenants:
      - namespace: team-llm
      - namespace: team-vision
        localQueue: vision
  - name: bench-kai
    scheduler: kai
    inventory: inventory.yaml
    rules: [values.yaml]
    tenants:
      - namespace: team-llm
        gpuQuota: 64
        weight: 2
      - namespace: team-vision
        gpuQuota: 16
  - name: hub
    inventory: hub.yaml
    clusterQueue: taugrid-fleet
    tenants:
      - namespace: team-llm
      - namespace: team-vision
        localQueue: vision
multikueue:
  manager: hub
  workers: [bench-nfd]
gitops:
  argocd:
    repoURL: https://git.example.invalid/fleet.git
    revision: main
  flux:
    sourceRef: {kind: GitRepository, name: flux-system}
"""


def fleet_project(root: Path) -> Path:
    """The project, built: its taugen.yaml (the trees are under out/)."""
    native = generate(root, NODES, forms=["native"])["native"]
    folder = native.project.parent
    observed = next(
        line for line in native.inventory.read_text().splitlines() if line.startswith("observedAt")
    )
    (folder / "hub.yaml").write_text(HUB.format(observed=observed.split('"')[1]))
    native.project.write_text(PROJECT)
    result = run_build(native.project)
    assert result.written == (*CLUSTERS, "_argocd", "_flux", "taugen.lock"), result
    return native.project
