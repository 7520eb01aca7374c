"""Issue 32: input shapes a pull request can choose to make a build slow, timed at growing sizes.

    .venv/bin/python -m benchmarks.hostile --sizes 1000,4000

- `rules`: N nodes each of its own vmSize and N one-size rules (every node was matched against
  every rule, and every rule label's position looked up: 4,000 took over 300 s);
- `problems`: N nodes no rule classes, N problems in one file (each position walked the file
  from its start: 4,000 took 211 s);
- `shard-one`: N nodes of one fabric with `shardSize: 1` (a group was dealt again for every part
  count until no two objects shared a part).

A time that grows with the square of N is a finding; the tests count the work instead
(tests/unit/test_scaling.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from taugen.commands.build import BuildOptions, build
from taugen.core.errors import InputError

NOW = datetime(2026, 11, 28, 13, 0, tzinfo=UTC)
FABRIC = "net.unbounded-cloud.io/network-domain"


def _node(name: str, vm_size: str = "Standard_ND96isr_H200_v5", **labels: str) -> dict[str, Any]:
    node: dict[str, Any] = {
        "name": name,
        "vmSize": vm_size,
        "allocatable": {"cpu": "96", "nvidia.com/gpu": "8"},
    }
    return node | ({"labels": labels} if labels else {})


def _project(root: Path, nodes: list[dict[str, Any]], rules: list[dict[str, Any]], **cluster: Any) -> Path:
    inventory: dict[str, Any] = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "ClusterInventory"}
    inventory |= {"metadata": {"name": "c1"}, "observedAt": "2026-11-28T12:00:00Z", "site": "eastus"}
    (root / "inventory.yaml").write_text(json.dumps(inventory | {"nodes": nodes}, indent=1))
    (root / "rules.yaml").write_text(json.dumps({"extraNodeLabelRules": rules}, indent=1))
    spec = {"name": "c1", "inventory": "inventory.yaml", "rules": ["rules.yaml"], **cluster}
    spec["tenants"] = [{"namespace": "team-a"}]
    project = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "Project", "clusters": [spec]}
    (root / "taugen.yaml").write_text(json.dumps(project, indent=1))
    return root / "taugen.yaml"


def rules(root: Path, n: int) -> Path:
    nodes = [_node(f"h-{i}", f"Standard_Custom_{i}") for i in range(n)]
    classed = {"tau.azure.com/gpu-class": "h200-141gb"}
    return _project(
        root, nodes, [{"match": {"vmSizes": [f"Standard_Custom_{i}"]}, "labels": classed} for i in range(n)]
    )


def problems(root: Path, n: int) -> Path:
    return _project(root, [_node(f"h-{i}", f"Unknown_{i}") for i in range(n)], [])


def shard_one(root: Path, n: int) -> Path:
    return _project(root, [_node(f"h-{i}", **{FABRIC: "ib-1"}) for i in range(n)], [], shardSize=1)


SHAPES: dict[str, Callable[[Path, int], Path]] = {
    "rules": rules,
    "problems": problems,
    "shard-one": shard_one,
}


def seconds(shape: str, n: int) -> float:
    with tempfile.TemporaryDirectory(prefix="taugen-hostile-") as folder:
        project = SHAPES[shape](Path(folder), n)
        start = time.perf_counter()
        with contextlib.suppress(InputError):  # `problems` is refused: the time is the refusal's
            build(BuildOptions(project, now=NOW))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000", help="comma-separated N")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated: " + ", ".join(SHAPES))
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            print(f"{shape:10} N={n:>6}: {seconds(shape, n):7.1f} s", flush=True)


if __name__ == "__main__":
    main()
