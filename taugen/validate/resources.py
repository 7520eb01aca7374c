"""The objects to validate: the files listing.py finds (files, folders, kustomizations), read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taugen.core.errors import InputError, Problem
from taugen.load.document import Document, Loc, Position, load_documents
from taugen.validate.listing import manifest_files

__all__ = ["Loaded", "Resource", "load_resources", "manifest_files"]


@dataclass(frozen=True)
class Resource:
    """One object of one file; its document finds positions (parsing again only when asked).
    Its kind and names are read once, here: every rule asks, of each of 100,000 Nodes."""

    doc: Document
    obj: Any = field(init=False, repr=False, compare=False)
    kind: str = field(init=False, repr=False, compare=False)
    name: str = field(init=False, repr=False, compare=False)
    namespace: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        data = self.doc.data
        mapping = type(data) is dict or isinstance(data, Mapping)  # an ABC's isinstance is slow
        meta: Any = data.get("metadata") if mapping else None
        known = type(meta) is dict or isinstance(meta, Mapping)
        self.__dict__.update(  # one update for the frozen fields, not four __setattr__ (issue 36)
            obj=data,
            kind=str(data.get("kind", "")) if mapping else "",
            name=str(meta.get("name", "")) if known else "",
            namespace=str(meta.get("namespace") or "") if known else "",
        )

    @property
    def file(self) -> Path:
        return self.doc.path

    def at(self, loc: Loc, *, key: bool = False) -> Position:
        return self.doc.at(loc, key=key)

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
