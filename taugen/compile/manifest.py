"""A manifest: one Kubernetes object and the file of the output tree it belongs in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MANAGED_BY = "app.kubernetes.io/managed-by"
SYNC_WAVE = "argocd.argoproj.io/sync-wave"
SYNC_OPTIONS = "argocd.argoproj.io/sync-options"


@dataclass  # not frozen (issue 36): three per Node, and a frozen __init__ costs 2.5 times as much
class Manifest:
    file: str  # path relative to out/<cluster>/
    obj: dict[str, Any]
    # obj is already in emit's canonical order (canonical.ordered would return it unchanged): the
    # decorated partial Nodes, built so in one step (issue 36), which emit then takes as they are
    ordered: bool = field(default=False, compare=False)

    @property
    def kind(self) -> str:
        return str(self.obj["kind"])

    @property
    def identity(self) -> tuple[str, str, str, str]:
        meta = self.obj["metadata"]
        return (self.obj["apiVersion"], self.kind, meta.get("namespace", ""), meta["name"])


def file_order(manifest: Manifest) -> tuple[str, str, str]:
    """A file's order of its objects: identity[1:] (kind, namespace, name), read without the
    property's 4-tuple (issue 36: 100,000 calls each time a tree is sorted)."""
    obj = manifest.obj
    meta = obj["metadata"]
    return (str(obj["kind"]), meta.get("namespace", ""), meta["name"])


def object_(
    api_version: str, kind: str, name: str, namespace: str | None = None, **fields: Any
) -> dict[str, Any]:
    """A bare object; labels and annotations are added when the tree is decorated (§4)."""
    meta: dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    return {"apiVersion": api_version, "kind": kind, "metadata": meta, **fields}


def annotate(obj: dict[str, Any], annotations: dict[str, str]) -> None:
    obj["metadata"].setdefault("annotations", {}).update(annotations)


def label(obj: dict[str, Any], labels: dict[str, str]) -> None:
    obj["metadata"].setdefault("labels", {}).update(labels)
