"""The node labels a compiled tree writes (R29): each side of a diff places nodes by its own."""

from __future__ import annotations

from pathlib import Path

import yaml

from taugen.load.document import read_text

NODES = "nodes"  # out/<cluster>/nodes/<gpu-class>/<network-domain>.yaml (nodelabels/base.py)


def tree_node_labels(folder: Path) -> dict[str, dict[str, str]] | None:
    """Node name -> the labels the tree gives it; None when the tree has no node manifests."""
    found = sorted((folder / NODES).rglob("*.yaml")) if (folder / NODES).is_dir() else []
    if not found:
        return None
    labels: dict[str, dict[str, str]] = {}
    for path in found:
        # taugen wrote these files (quoted where YAML 1.1 and 1.2 differ), and no position is
        # ever reported from them: libyaml's C loader, the fastest measured (STYLE.md)
        for doc in yaml.load_all(read_text(path), Loader=yaml.CSafeLoader):
            data = doc if isinstance(doc, dict) else {}
            meta = data.get("metadata") or {}
            if data.get("kind") == "Node" and isinstance(meta.get("name"), str):
                labels[meta["name"]] = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    return labels
