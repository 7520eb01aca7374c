"""The node labels a compiled tree writes (R29): each side of a diff places nodes by its own."""

from __future__ import annotations

from pathlib import Path

from taugen.compile.nodelabels.base import NODES_DIR as NODES
from taugen.load.compiled import load_tree_documents


def tree_node_labels(folder: Path) -> dict[str, dict[str, str]] | None:
    """Node name -> the labels the tree gives it; None when the tree has no node manifests."""
    found = sorted((folder / NODES).rglob("*.yaml")) if (folder / NODES).is_dir() else []
    if not found:
        return None
    labels: dict[str, dict[str, str]] = {}
    for path in found:
        # from the pull request: read as YAML 1.2, an unquoted `y` a string (issue 17 item 9)
        for doc in load_tree_documents(path):
            data = doc if isinstance(doc, dict) else {}
            meta = data.get("metadata") or {}
            if data.get("kind") == "Node" and isinstance(meta.get("name"), str):
                labels[meta["name"]] = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    return labels
