"""Objects of a tree, paired by identity: moving an object to another file is not a change.

A folder holding a `kustomization.yaml` is one cluster (one Argo CD or Flux application): the
same PriorityClass in two cluster folders is two objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from taugen.context.committed import TreeFiles
from taugen.core.errors import InputError, Problem, ProblemCollector
from taugen.load.compiled import tree_documents

KUSTOMIZATION = "kustomization.yaml"


@dataclass(frozen=True, order=True)
class Identity:
    cluster: str  # the cluster folder relative to the tree's root; "" for the root itself
    kind: str
    namespace: str
    name: str
    api_version: str

    @property
    def title(self) -> str:
        return f"{self.kind} {self.namespace}/{self.name}" if self.namespace else f"{self.kind} {self.name}"


@dataclass(frozen=True)
class PlacedObject:
    file: str
    obj: dict[str, Any]


def objects(tree: TreeFiles, parsed: dict[bytes, list[Any]] | None = None) -> dict[Identity, PlacedObject]:
    """Every object of the tree by identity; unreadable YAML or a duplicate is bad input.

    `parsed` shares documents between the two sides: a file unchanged between BASE and HEAD is
    parsed once (YAML loading is most of the time on a large tree), and its objects compare equal
    by identity, without a walk."""
    memo: dict[bytes, list[Any]] = {} if parsed is None else parsed
    clusters = sorted((str(PurePosixPath(f).parent) for f in tree.files if _is_kustomization(f)), key=len)
    found: dict[Identity, PlacedObject] = {}
    problems = ProblemCollector()
    for name, content in tree.files.items():
        if _is_kustomization(name):
            continue
        cluster = _cluster_of(name, clusters)
        docs = memo.get(content)
        if docs is None:
            docs = _documents(tree.label, name, content, problems)
            memo.update({content: docs} if docs is not None else {})
        for index, obj in enumerate(docs or []):
            ident = _identity(obj, cluster)
            if ident is None:
                problems.add(_problem(tree.label, name, f"document {index + 1} is not a Kubernetes object"))
            elif ident in found:
                message = f"{ident.title} is defined twice (also in {found[ident].file})"
                problems.add(_problem(tree.label, name, message, "keep one of them"))
            else:
                found[ident] = PlacedObject(name, obj)
    problems.raise_if_any()
    return dict(sorted(found.items()))


def _is_kustomization(name: str) -> bool:
    return PurePosixPath(name).name == KUSTOMIZATION


def _cluster_of(name: str, clusters: list[str]) -> str:
    parent = PurePosixPath(name).parent
    # the outermost: a node-label shard's kustomization (nodes/<shard>/, G1) is in its cluster's
    inside = [c for c in clusters if c == "." or PurePosixPath(c) in (parent, *parent.parents)]
    return "" if not inside or inside[0] == "." else inside[0]


def _documents(label: str, name: str, content: bytes, problems: ProblemCollector) -> list[Any] | None:
    try:
        return tree_documents(_path(label, name), content.decode("utf-8-sig"))
    except UnicodeDecodeError:
        problems.add(_problem(label, name, "the file is not UTF-8", "save it as UTF-8"))
    except InputError as err:  # YAML 1.2, core tags only (load/compiled.py), with positions
        problems.extend(err.problems)
    return None


def _identity(obj: Any, cluster: str) -> Identity | None:
    meta = obj.get("metadata") if isinstance(obj, Mapping) else None
    if not isinstance(meta, Mapping) or not meta.get("name") or not obj.get("kind"):
        return None
    namespace = str(meta.get("namespace") or "")
    return Identity(cluster, str(obj["kind"]), namespace, str(meta["name"]), str(obj.get("apiVersion", "")))


def _path(label: str, name: str) -> Path:
    return Path(label) if PurePosixPath(label).name == name else Path(label) / name


def _problem(label: str, name: str, message: str, hint: str = "fix the file") -> Problem:
    return Problem(_path(label, name), 0, 0, "diff-source", message, hint)
