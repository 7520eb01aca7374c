"""SPEC G1/G2 figures of a built tree: shards, the largest shard, object, file and Flux inventory.

Each kustomization no other one lists is a root that one Argo CD Application or Flux
Kustomization syncs: the cluster's core (out/<cluster>/) and each node-label shard
(out/<cluster>/nodes/<shard>/). Flux records every object it applied in the Kustomization's
`status.inventory.entries` as `{"id": "<namespace>_<name>_<group>_<kind>", "v": "<version>"}`;
that status is part of one etcd object, so its JSON must stay well under 1.5 MiB (here: 1 MiB).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

KUSTOMIZATION = "kustomization.yaml"
MAX_OBJECT = 262_144  # Argo CD's client-side apply limit (G2)
MAX_FILE = 1 << 20  # G2
MAX_INVENTORY = 1 << 20


def _compact(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def inventory_entry(obj: dict[str, Any]) -> dict[str, str]:
    """The entry Flux's kustomize-controller records for an applied object."""
    group, _, version = str(obj.get("apiVersion", "")).rpartition("/")
    meta = obj.get("metadata") or {}
    return {
        "id": f"{meta.get('namespace', '')}_{meta.get('name', '')}_{group}_{obj.get('kind', '')}",
        "v": version,
    }


def inventory_bytes(objects: list[dict[str, Any]]) -> int:
    """The JSON size of a Kustomization's `status.inventory` holding these objects."""
    return _compact({"entries": [inventory_entry(o) for o in objects]})


def tree_limits(out_root: Path) -> dict[str, int]:
    """Shards, the largest shard's object count, the largest object (compact JSON) and file
    (bytes), and the Flux inventory of the largest root, over every cluster of `out_root`."""
    roots = sorted(k.parent for k in out_root.rglob(KUSTOMIZATION))
    figures = {"roots": len(roots), "shards": 0, "largest_shard_objects": 0, "largest_root_objects": 0}
    figures |= {"largest_object_bytes": 0, "largest_file_bytes": 0, "largest_inventory_bytes": 0}
    for root in roots:
        listed = (yaml.load((root / KUSTOMIZATION).read_text(), Loader=yaml.CSafeLoader) or {}).get(
            "resources"
        ) or []
        objects: list[dict[str, Any]] = []
        for name in listed:
            path = root / name
            figures["largest_file_bytes"] = max(figures["largest_file_bytes"], path.stat().st_size)
            docs = [d for d in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader) if d]
            objects += docs
            figures["largest_object_bytes"] = max(
                figures["largest_object_bytes"], *(_compact(d) for d in docs)
            )
        if root.parent.name == "nodes":
            figures["shards"] += 1
            figures["largest_shard_objects"] = max(figures["largest_shard_objects"], len(objects))
        figures["largest_root_objects"] = max(figures["largest_root_objects"], len(objects))
        figures["largest_inventory_bytes"] = max(figures["largest_inventory_bytes"], inventory_bytes(objects))
    return figures


def within(figures: dict[str, int]) -> dict[str, bool]:
    return {
        "object <= 262,144 bytes": figures["largest_object_bytes"] <= MAX_OBJECT,
        "file <= 1 MiB": figures["largest_file_bytes"] <= MAX_FILE,
        "Flux inventory < 1 MiB": figures["largest_inventory_bytes"] < MAX_INVENTORY,
    }
