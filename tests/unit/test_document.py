"""Issue 36: the quick constructors of the gate's and the tree readers' Document and Resource
make the very objects the dataclasses' own `__init__` makes, every field included (a field added
later that they miss fails here)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from taugen.load.document import Document
from taugen.validate.resources import Resource

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n-1", "labels": {"a": "b"}}}
DATA: list[Any] = [
    NODE,
    {"kind": "LocalQueue", "metadata": {"name": "q", "namespace": "team-a"}},
    {"kind": 7, "metadata": {"name": 8, "namespace": None}},
    {"metadata": "not a map"},
    ["a", "list"],
    "a scalar",
    None,
]


def _fields(obj: Any) -> dict[str, Any]:
    assert set(vars(obj)) == {f.name for f in dataclasses.fields(obj)}
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


@pytest.mark.parametrize("data", DATA)
def test_in_text_is_the_dataclass_document(data: Any) -> None:
    path = Path("out/c1/nodes/h200/nodes.yaml")
    quick, made = Document.in_text(path, data, "text", 3), Document(path, data, text="text", index=3)
    assert _fields(quick) == _fields(made)
    assert quick == made
    assert quick.memo is not Document.in_text(path, data, "text", 3).memo  # each its own lookups


@pytest.mark.parametrize("data", DATA)
def test_of_is_the_dataclass_resource(data: Any) -> None:
    doc = Document.in_text(Path("f.yaml"), data, "text", 0)
    quick, made = Resource.of(doc), Resource(doc)
    assert _fields(quick) == _fields(made)
    assert (quick.kind, quick.name, quick.namespace) == (made.kind, made.name, made.namespace)
    assert quick == made


def test_of_reads_kind_and_names() -> None:
    found = Resource.of(Document.in_text(Path("f.yaml"), DATA[1], "text", 0))
    assert (found.kind, found.name, found.namespace, found.ident) == (
        "LocalQueue",
        "q",
        "team-a",
        "LocalQueue/team-a/q",
    )
