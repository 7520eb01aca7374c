"""Issue 36: the readers take yaml-rs's data for plain text and find positions only when asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taugen.core.errors import InputError, Problem
from taugen.load import document, fast, native
from taugen.load.compiled import tree_bytes, tree_documents
from taugen.load.document import load_documents

INVENTORY = """\
kind: ClusterInventory
observedAt: "2026-11-28T12:00:00Z"
nodes:
  - name: a
    allocatable: {cpu: "96", nvidia.com/gpu: "8"}
  - name: b
    allocatable:
      nvidia.com/gpu: "8.5"
"""
DATA = {
    "kind": "ClusterInventory",
    "observedAt": "2026-11-28T12:00:00Z",
    "nodes": [
        {"name": "a", "allocatable": {"cpu": "96", "nvidia.com/gpu": "8"}},
        {"name": "b", "allocatable": {"nvidia.com/gpu": "8.5"}},
    ],
}


def _no_event_loader(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    called: list[str] = []

    def refuse(text: str, *args: Any) -> list[Any]:
        called.append(text)
        raise fast.Unsupported("the event loader was asked")

    monkeypatch.setattr(fast, "load_all", refuse)
    return called


def test_plain_input_is_read_without_the_event_loader_and_positions_come_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "inventory.yaml"
    file.write_text(INVENTORY)
    expected = [(d.data, d.at(["nodes", 1, "allocatable", "nvidia.com/gpu"])) for d in load_documents(file)]
    called = _no_event_loader(monkeypatch)
    [doc] = load_documents(file)
    assert called == []
    assert doc.data == DATA
    assert [(doc.data, doc.at(["nodes", 1, "allocatable", "nvidia.com/gpu"]))] == expected
    assert doc.at(["nodes", 1, "allocatable", "nvidia.com/gpu"]) == document.Position(file, 8, 23)
    assert doc.at(["nodes", 0, "name"], key=True) == document.Position(file, 4, 5)


def test_a_tree_file_is_read_without_the_event_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    called = _no_event_loader(monkeypatch)
    text = "kind: A\nmetadata: {name: x}\n---\nkind: B\nspec: {at: 2026-11-29, n: 08}\n"
    assert tree_documents(Path("t.yaml"), text) == [
        {"kind": "A", "metadata": {"name": "x"}},
        {"kind": "B", "spec": {"at": "2026-11-29", "n": 8}},
    ]
    assert called == []


def test_text_the_happy_path_leaves_goes_to_the_event_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    called = _no_event_loader(monkeypatch)
    text = "a: &x {b: 1}\nc: *x\n"
    with pytest.raises(
        InputError
    ):  # the fallback's fallback (ruamel) is not patched: it is the event loader's refusal
        tree_documents(Path("t.yaml"), text)
    assert called == [text]


def test_a_duplicate_key_is_reported_as_before(tmp_path: Path) -> None:
    file = tmp_path / "dup.yaml"
    file.write_text("kind: ClusterInventory\nnodes: []\nkind: List\n")
    with pytest.raises(InputError) as caught:
        load_documents(file)
    [problem] = caught.value.problems
    assert (problem.path, problem.line, problem.col, problem.rule) == (file, 3, 1, "yaml")
    assert "duplicate key" in problem.message
    assert problem == Problem(file, 3, 1, "yaml", problem.message, "remove one of the duplicate keys")


def test_a_git_blob_or_diff_side_is_read_without_the_event_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    # context/revision.py gives a revision's blobs as bytes; CompiledTree.of and diff read them so
    called = _no_event_loader(monkeypatch)
    [doc] = tree_bytes(Path("git:HEAD:out/q.yaml"), b"kind: ClusterQueue\nspec:\n  cohort: org\n")
    assert doc.data == {"kind": "ClusterQueue", "spec": {"cohort": "org"}}
    assert called == []
    assert doc.at(["spec", "cohort"]) == document.Position(Path("git:HEAD:out/q.yaml"), 3, 11)


def test_each_scan_is_skipped_only_where_its_matches_cannot_start() -> None:
    """Issue 36: `plain` asks a scan only when the character all its matches start with is in the
    text. Each scan's pattern starts with that one character, taken literally."""
    assert len(native._LEADS) == len(native._SCANS) + len(native._NUMBERS)
    for lead, scan in native._LEADS:
        escaped = scan.pattern.startswith("\\")
        assert len(lead) == 1 and scan.pattern[1 if escaped else 0] == lead
        assert scan.pattern[2 if escaped else 1] not in "*+?{|"  # not optional, nor one of alternatives
    assert not native.plain("a: !tag x\n") and not native.plain("a: 0X1F\n") and native.plain("a: b\n")
