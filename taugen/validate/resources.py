"""The objects to validate: the files listing.py finds (files, folders, kustomizations), read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.errors import InputError, Problem
from taugen.load.document import Document, Loc, Position, load_documents
from taugen.validate.listing import manifest_files

__all__ = ["Loaded", "Resource", "load_resources", "manifest_files"]


@dataclass(frozen=True)
class Resource:
    """One object of one file; its document finds positions (parsing again only when asked)."""

    doc: Document

    @property
    def file(self) -> Path:
        return self.doc.path

    @property
    def obj(self) -> Any:
        return self.doc.data

    def at(self, loc: Loc, *, key: bool = False) -> Position:
        return self.doc.at(loc, key=key)

    @property
    def kind(self) -> str:
        return str(self.obj.get("kind", "")) if isinstance(self.obj, Mapping) else ""

    @property
    def name(self) -> str:
        meta = self.obj.get("metadata") if isinstance(self.obj, Mapping) else None
        return str(meta.get("name", "")) if isinstance(meta, Mapping) else ""

    @property
    def namespace(self) -> str:
        meta = self.obj.get("metadata") if isinstance(self.obj, Mapping) else None
        return str(meta.get("namespace") or "") if isinstance(meta, Mapping) else ""

    @property
    def ident(self) -> str:
        ns = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind or '?'}/{ns}{self.name or '?'}"


@dataclass(frozen=True)
class Loaded:
    resources: list[Resource]
    files: list[Path]
    problems: list[Problem]  # YAML that cannot be read as manifests: findings, not usage errors


def load_resources(files: list[Path]) -> Loaded:
    resources: list[Resource] = []
    problems: list[Problem] = []
    for path in files:
        try:
            resources.extend(Resource(d) for d in load_documents(path))
        except InputError as err:
            if any(p.rule == "io" for p in err.problems):
                raise
            problems.extend(err.problems)
    return Loaded(resources, files, problems)
