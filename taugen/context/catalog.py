"""Read a cluster's committed profile catalog (R30) back: the source render trusts (R32)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import StrictBool, StrictStr

from taugen.compile.catalog import CATALOG_FILE, CATALOG_KEY, CATALOG_NAME, DIGEST_ANNOTATION
from taugen.core.errors import InputError, Problem, Rule
from taugen.load.compiled import tree_documents, tree_file
from taugen.load.document import Document, Position
from taugen.load.validate import validate
from taugen.models.base import StrictModel
from taugen.models.profile import Deprecation, Policy

RULE: Rule = "R30"
REBUILD = "run `taugen build`: it writes the catalog"


class CatalogEntry(StrictModel):
    name: StrictStr
    policy: Policy
    priorityClass: StrictStr
    topologyLevel: StrictStr | None
    ready: StrictBool
    reason: StrictStr | None = None
    readyClasses: list[StrictStr] | None = None  # R47: a list's ready classes, in its order
    deprecated: Deprecation | None = None


class CatalogBody(StrictModel):
    cluster: StrictStr
    inputsDigest: StrictStr
    profiles: list[CatalogEntry]


@dataclass(frozen=True)
class Catalog:
    path: Path
    body: CatalogBody
    digest_at: Position

    @property
    def digest(self) -> str:
        return self.body.inputsDigest

    @property
    def entries(self) -> dict[str, CatalogEntry]:
        return {e.name: e for e in self.body.profiles}

    def replaced_by(self) -> dict[str, str | None]:
        return {e.name: e.deprecated.replacedBy if e.deprecated else None for e in self.body.profiles}


def read_catalog(
    folder: Path,
    documents: Callable[[Path], list[Document]] = tree_file,
    exists: Callable[[Path], bool] = Path.is_file,
) -> Catalog:
    """The catalog of the tree `folder`, its file parsed by `documents` (context/tree.py's)."""
    path = folder / CATALOG_FILE
    if not exists(path):
        raise InputError(
            [Problem(path, 0, 0, "R32", "no profile catalog: the cluster is not built", REBUILD)]
        )
    doc = _config_map(path, documents(path))
    text = _data(doc).get(CATALOG_KEY)
    if not isinstance(text, str):
        raise InputError([doc.at(["data"]).problem(RULE, f"the catalog has no {CATALOG_KEY}", REBUILD)])
    body = validate(CatalogBody, doc, RULE, data=_body(doc, text), relocate=lambda _: ["data", CATALOG_KEY])
    return Catalog(path, body, doc.at(["metadata", "annotations", DIGEST_ANNOTATION]))


def _body(doc: Document, text: str) -> Any:
    """The embedded profiles.yaml as YAML 1.2 reads it (load/compiled.py, issue 17): one document."""
    try:
        docs = tree_documents(doc.path, text)
    except InputError as err:
        why = err.problems[0].message
    else:
        if len(docs) <= 1:
            return docs[0] if docs else None
        why = f"it holds {len(docs)} YAML documents; one is expected"
    raise InputError([doc.at(["data", CATALOG_KEY]).problem(RULE, f"unreadable: {why}", REBUILD)])


def _config_map(path: Path, documents: list[Document]) -> Document:
    for doc in documents:
        meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
        if (
            isinstance(meta, dict)
            and doc.data.get("kind") == "ConfigMap"
            and meta.get("name") == CATALOG_NAME
        ):
            return doc
    raise InputError([Problem(path, 1, 1, RULE, f"no ConfigMap {CATALOG_NAME} in the file", REBUILD)])


def _data(doc: Document) -> dict[str, Any]:
    data = doc.data.get("data")
    return data if isinstance(data, dict) else {}
