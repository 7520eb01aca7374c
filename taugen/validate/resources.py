"""The objects to validate: files, folders and kustomizations resolved to resources."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.errors import InputError, Problem
from taugen.load.document import Document, Loc, Position, fast_documents, load_documents

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
KUSTOMIZATION = "kustomization.yaml"


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


def manifest_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Files to read (a kustomization's resources, a folder's manifests, or the file itself),
    and the problems of kustomizations that list what is not there."""
    for path in paths:
        if not path.exists():
            raise InputError([Problem(path, 0, 0, "io", "no such file or folder", "check the path")])
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        _collect(path, files, problems)
    return list(dict.fromkeys(files)), problems


def _collect(path: Path, files: list[Path], problems: list[Problem]) -> None:
    if path.is_dir() and (path / KUSTOMIZATION).is_file():
        path = path / KUSTOMIZATION
    if path.name == KUSTOMIZATION:
        _kustomized(path, files, problems)
    elif path.is_dir():
        for child in sorted(p for p in path.iterdir() if _manifest_or_folder(p)):
            _collect(child, files, problems)
    else:
        files.append(path)


def _manifest_or_folder(path: Path) -> bool:
    return path.is_dir() or (path.suffix in MANIFEST_SUFFIXES and path.name != KUSTOMIZATION)


def _kustomized(path: Path, files: list[Path], problems: list[Problem]) -> None:
    try:
        docs = load_documents(path)
    except InputError as err:
        problems.extend(err.problems)
        return
    listed = docs[0].data.get("resources") if docs and isinstance(docs[0].data, Mapping) else None
    for index, entry in enumerate(listed if isinstance(listed, list) else []):
        target = path.parent / str(entry)
        if target.exists():
            _collect(target, files, problems)
        else:
            problems.append(
                docs[0]
                .at(["resources", index])
                .problem("kustomization", f"{entry} is listed but does not exist", "fix or remove the entry")
            )


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


def resources_from_bytes(files: Mapping[Path, bytes]) -> list[Resource]:
    """Objects of files not yet written (build validates its tree before the swap)."""
    return [Resource(d) for path, content in files.items() for d in fast_documents(path, content.decode())]
