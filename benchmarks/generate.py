"""Write a synthetic fleet as taugen projects, one per inventory form.

    python -m benchmarks.generate --nodes 100000 --out /tmp/fleet [--forms native,kubectl,kubectl-json]

gives /tmp/fleet/<form>/taugen.yaml (one cluster `bench`, two tenants), the inventory
(inventory.yaml, nodes.yaml or nodes.json) and values.yaml, the extraNodeLabelRules in the
platform chart's Helm-values shape. Same arguments, same bytes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from benchmarks.fleet import CHANGED_OBSERVED, OBSERVED, REGION, FleetNode, make_fleet
from benchmarks.kubectl import PROVIDER, kubectl_json, kubectl_yaml

FORMS = {"native": "inventory.yaml", "kubectl": "nodes.yaml", "kubectl-json": "nodes.json"}
DEFAULT_FORMS = ("native", "kubectl")
IMAGES = 12  # images listed per node in the kubectl form: most of a real Node's bytes
SEED = 6
CLUSTER = "bench"

RULES = """\
# Values of the platform's tau-core-controller chart; taugen reads only extraNodeLabelRules.
tau-core-controller:
  image:
    tag: "1.14.2"
  tauCluster:
    name: bench
    extraNodeLabelRules:
      - match:
          vmSizes: [Standard_ND128isr_GB200_v6]
        labels:
          kueue.azure.com/gpu-series: nd-gb200-v6
          tau.azure.com/gpu-class: gb200-186gb
      - match:
          vmSizes: [Standard_Custom_H200_v5]
        labels:
          kueue.azure.com/gpu-series: custom-h200-v5
          tau.azure.com/gpu-class: h200-141gb
      - match:
          vmSizes: [Standard_D16s_v5]
        labels:
          node-pool.example.com/role: system
"""

PROJECT = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Project
output: out
clusters:
  - name: {cluster}
    inventory: {inventory}
    rules: [values.yaml]
    tenants:
      - namespace: team-llm
      - namespace: team-vision
        localQueue: vision
"""


@dataclass(frozen=True)
class Generated:
    form: str
    project: Path  # taugen.yaml
    inventory: Path
    nodes: int
    size: int  # bytes of the inventory
    seconds: float  # to write it


def generate(
    root: Path,
    nodes: int,
    *,
    seed: int = SEED,
    forms: Sequence[str] = DEFAULT_FORMS,
    changed: bool = False,
    images: int = IMAGES,
) -> dict[str, Generated]:
    """Write each form's project under root/<form>/; `changed` writes the slightly changed fleet."""
    fleet = make_fleet(nodes, seed, changed=changed)
    observed = CHANGED_OBSERVED if changed else OBSERVED
    return {form: _write_form(root / form, form, fleet, observed, images) for form in forms}


def _write_form(
    folder: Path, form: str, fleet: list[FleetNode], observed: datetime, images: int
) -> Generated:
    start = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    inventory = folder / FORMS[form]
    pieces = {
        "native": lambda: native_yaml(fleet, observed),
        "kubectl": lambda: kubectl_yaml(fleet, observed, images),
        "kubectl-json": lambda: kubectl_json(fleet, observed, images),
    }[form]()
    _write_pieces(inventory, pieces)
    (folder / "values.yaml").write_text(RULES)
    project = folder / "taugen.yaml"
    project.write_text(PROJECT.format(cluster=CLUSTER, inventory=inventory.name))
    seconds = time.perf_counter() - start
    return Generated(form, project, inventory, len(fleet), inventory.stat().st_size, seconds)


def _write_pieces(path: Path, pieces: Iterable[str]) -> None:
    with path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20) as out:
        out.writelines(pieces)


def native_yaml(fleet: Iterable[FleetNode], observed: datetime) -> Iterator[str]:
    """The ClusterInventory as the platform's exporter writes it (flow-style allocatable)."""
    yield (
        "# A synthetic fleet written by benchmarks/generate.py.\n"
        "apiVersion: taugen.tau.azure.com/v1alpha1\n"
        "kind: ClusterInventory\n"
        f"metadata:\n  name: {CLUSTER}\n"
        f'observedAt: "{observed:%Y-%m-%dT%H:%M:%SZ}"\n'
        f"site: {REGION}\n"
        "nodes:\n"
    )
    for node in fleet:
        yield _native_node(node)


def _native_node(node: FleetNode) -> str:
    pool = node.pool
    gpus = f', nvidia.com/gpu: "{pool.gpus}"' if pool.gpus else ""
    text = f"  - name: {node.name}\n    vmSize: {pool.vm_size}\n"
    if not node.ready:
        text += "    ready: false\n"
    text += f'    allocatable: {{cpu: "{pool.cpu}", memory: {pool.memory_gi}Gi{gpus}}}\n'
    text += f"    labels:\n      agentpool: {node.agentpool}\n"
    if node.rack:
        text += f"      {PROVIDER}/accelerator-domain: {node.rack}\n"
    if node.fabric:
        text += f"      {PROVIDER}/network-domain: {node.fabric}\n"
    return text + f"      topology.kubernetes.io/zone: {REGION}-{node.zone}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=10_000, help="fleet size (default 10000)")
    parser.add_argument("--out", type=Path, required=True, help="folder to write the projects into")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--forms", default=",".join(DEFAULT_FORMS), help=f"comma-separated of {', '.join(FORMS)}"
    )
    parser.add_argument("--images", type=int, default=IMAGES, help="images per node in the kubectl forms")
    parser.add_argument("--changed", action="store_true", help="the slightly changed fleet (for diff)")
    args = parser.parse_args(argv)
    forms = [f for f in args.forms.split(",") if f]
    if unknown := sorted(set(forms) - set(FORMS)):
        parser.error(f"unknown form(s): {', '.join(unknown)}")
    written = generate(
        args.out, args.nodes, seed=args.seed, forms=forms, changed=args.changed, images=args.images
    )
    for g in written.values():
        print(f"{g.inventory}: {g.nodes} nodes, {g.size / 1e6:.1f} MB in {g.seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
