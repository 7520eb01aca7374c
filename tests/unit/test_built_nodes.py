"""The gate's bulk check of compiled Nodes (validate/built_nodes.py, issue 36): a build's Nodes
take it and pass; what it cannot vouch for is validated one by one, as before. That both ways
refuse the same trees, with the same lines, is tests/property/test_gate_nodes.py's."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml

import taugen.commands.validate
import taugen.validate.built_nodes
import taugen.validate.gate
import taugen.validate.objects
from taugen.commands.build import BuildOptions, build
from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.core.errors import FoundProblems
from taugen.emit.canonical import dump
from taugen.validate.built_nodes import (
    NOTHING,
    BuiltFile,
    Elsewhere,
    Vouched,
    clean,
    shaped,
    summarized,
    summary,
    vouch,
)
from taugen.validate.report import as_json
from taugen.validate.schemas import SchemaStore

REPO = Path(__file__).resolve().parents[2]
NODES = "nodes/h200-141gb/nodes-1.yaml"


def _node(name: str, **annotations: str) -> dict[str, Any]:
    labels = {"tau.azure.com/gpu-class": "h200-141gb"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels, "annotations": annotations},
    }


Answer = frozenset[str] | None


@dataclass(frozen=True)
class Example:
    out: Path
    gate: list[tuple[int, Answer]]  # (files, answer) of each bulk check the build's gate asked
    node_files: list[Path]
    classes: frozenset[str]  # as flavor_nodes reads them: a Node without a class carries "None"
    nodes: int


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Example:
    """The example project (seven clusters, a KAI one among them), built."""
    root = tmp_path_factory.mktemp("example")
    shutil.copyfile(REPO / "taugen.yaml", root / "taugen.yaml")
    shutil.copytree(REPO / "examples", root / "examples")
    calls: list[tuple[int, Answer]] = []

    def spy(files: list[BuiltFile], *args: Any) -> Answer:
        calls.append((len(files), clean(files, *args)))
        return calls[-1][1]

    with mock.patch.object(taugen.validate.gate, "clean", spy):
        build(BuildOptions(project_file=root / "taugen.yaml"))
    node_files = [p for p in (root / "out").rglob("nodes/*/*.yaml") if p.name != "kustomization.yaml"]
    docs = [doc for path in node_files for doc in yaml.safe_load_all(path.read_text())]
    classes = frozenset(str(d["metadata"]["labels"].get("tau.azure.com/gpu-class")) for d in docs)
    return Example(root / "out", calls, node_files, classes, len(docs))


def test_the_example_builds_nodes_take_the_bulk_check_and_pass(example: Example) -> None:
    assert example.node_files and "h200-141gb" in example.classes
    assert example.gate == [(len(example.node_files), example.classes)]


def test_validate_vouches_for_the_example_trees_nodes(example: Example) -> None:
    # every Node that `taugen validate out` reads is checked in bulk; the report is the one
    # validating them one by one gives, and valid
    found: list[Vouched] = []

    def spy(*args: Any) -> Vouched:
        found.append(vouch(*args))
        return found[-1]

    options = ValidateOptions(paths=(example.out,), project_file=example.out / "none.yaml")
    with mock.patch.object(taugen.commands.validate, "vouch", spy):
        report = validate_paths(options)
    with mock.patch.object(taugen.commands.validate, "vouch", lambda *_: NOTHING):
        one_by_one = validate_paths(options)
    assert [(len(v.ids), v.classes) for v in found] == [(example.nodes, example.classes)]
    assert report.valid and as_json(report, example.out) == as_json(one_by_one, example.out)


def test_a_file_over_one_mib_of_right_nodes_is_refused_as_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each Node is small and right; together they make a file SPEC G2 refuses (at the first
    # object, below the header and its `---`)
    monkeypatch.chdir(tmp_path)
    nodes = [_node(f"h200-{i}", note="x" * 600) for i in range(2_000)]
    objects, files = {NODES: nodes}, {NODES: dump(nodes)}
    assert shaped(nodes) and len(files[NODES]) > 1_048_576
    refusals = []
    for check in (clean, lambda *_: None):
        monkeypatch.setattr(taugen.validate.gate, "clean", check)
        with pytest.raises(FoundProblems) as refused:
            taugen.validate.gate.check_tree(tmp_path / "out", {"c1": (objects, files)})
        refusals.append(refused.value.lines)
    size = len(files[NODES])
    assert refusals[0] == refusals[1]
    assert refusals[0][0] == (
        f"out/c1/{NODES}:3:1: error: Node/h200-0: the file is {size:,} bytes; SPEC G2 allows 1,048,576 (size)"
    )


def _files(*nodes: dict[str, Any], text: str | None = None, as_bytes: bool = False) -> list[BuiltFile]:
    """One file of the Nodes, its text as `validate` keeps it, or its bytes as a build has them."""
    source = text if text is not None else dump(nodes).decode()
    return [BuiltFile(Path("out/c1") / NODES, list(nodes), source.encode() if as_bytes else source)]


@pytest.mark.parametrize("as_bytes", [False, True])
def test_right_nodes_are_clean(as_bytes: bool) -> None:
    files = _files(_node("a"), _node("b"), as_bytes=as_bytes)
    assert clean(files, [], SchemaStore(), [Path("out/c1")]) == frozenset({"h200-141gb"})


@pytest.mark.parametrize("as_bytes", [False, True])
def test_an_anchor_in_the_text_is_left_to_the_engine(as_bytes: bool) -> None:
    # an alias can make an object far larger than its text (objects.sizes measures its JSON)
    text = dump([_node("a")]).decode().replace("metadata:", "metadata: &m", 1)
    files = _files(_node("a"), text=text, as_bytes=as_bytes)
    assert None is clean(files, [], SchemaStore(), [Path("out/c1")])


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_file_over_one_mib_in_utf8_is_left_to_the_engine(as_bytes: bool) -> None:
    """G2 counts bytes: 700,000 characters of `é` are 1.4 MB, in either form of the text."""
    node = _node("a", note="é" * 700_000)
    assert None is clean(_files(node, as_bytes=as_bytes), [], SchemaStore(), [Path("out/c1")])
    assert clean(_files(_node("a", note="é" * 100), as_bytes=as_bytes), [], SchemaStore(), [Path("out/c1")])


def _elsewhere(*nodes: dict[str, Any]) -> Elsewhere:
    """These Nodes as another process sends them (emit/split.py): their file's bytes and summary."""
    path = Path("out/c1/nodes/h200-141gb/nodes-2.yaml")
    return Elsewhere((path,), (dump(list(nodes)),), summary([list(nodes)]))


def _labelled(name: str, key: str, value: str) -> dict[str, Any]:
    node = _node(name)
    node["metadata"]["labels"][key] = value
    return node


@pytest.mark.parametrize(
    "wrong",
    [
        _labelled("a", "x.io/ok", "-a"),  # a label value
        _labelled("a", "-x.io/ok", "a"),  # a label key
        _node("A"),  # a name
    ],
)
def test_what_one_wrong_node_holds_is_refused_here_and_from_another_process(wrong: dict[str, Any]) -> None:
    """Each string `_syntax` checks, met here or in a summary another process sent."""
    store, roots = SchemaStore(), [Path("out/c1")]
    assert None is clean(_files(_node("b"), wrong), [], store, roots)
    assert None is clean(_files(_node("b")), [], store, roots, [_elsewhere(wrong)])
    assert clean(_files(_node("b")), [], store, roots, [_elsewhere(_node("c"))]) == frozenset({"h200-141gb"})


def test_a_summary_of_no_files_is_nothing_to_check() -> None:
    """A child whose half held no group (all Nodes in one group) sends no files: the Nodes here
    still take the bulk check."""
    nothing = Elsewhere((), (), summary([]))
    found = clean(_files(_node("a")), [], SchemaStore(), [Path("out/c1")], [nothing])
    assert found == frozenset({"h200-141gb"})


def test_a_name_met_here_and_in_a_summary_is_refused() -> None:
    store, roots = SchemaStore(), [Path("out/c1")]
    assert None is clean(_files(_node("a")), [], store, roots, [_elsewhere(_node("a"))])
    assert None is clean([], [], store, roots, [_elsewhere(_node("a"), _node("a"))])


def test_a_built_file_decodes_its_bytes_only_when_asked() -> None:
    """Issue 36: the gate no longer decodes every file it is given (80 MiB at 100,000 Nodes)."""
    text = dump([_node("a", note="é")]).decode()
    built = BuiltFile(Path("out/c1") / NODES, [_node("a", note="é")], text.encode())
    assert "text" not in vars(built)
    assert built.text == text and "text" in vars(built)
    assert BuiltFile(built.path, built.objects, text).text is text


def test_a_node_check_of_taugen_own_is_left_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # were a check of taugen's own to speak of Nodes, the bulk check could not vouch for them
    monkeypatch.setattr(taugen.validate.built_nodes, "object_checks", lambda key: ("a check",))
    assert None is clean(_files(_node("a")), [], SchemaStore(), [Path("out/c1")])


@pytest.mark.parametrize(
    "obj",
    [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}, "spec": {}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "namespace": "x"}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": 1}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "labels": None}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}},
        "Node",
    ],
)
def test_what_is_not_a_compiled_node_is_not_shaped(obj: Any) -> None:
    assert not shaped([_node("a"), obj])


def test_no_objects_are_not_shaped() -> None:
    assert not shaped([])


@pytest.mark.parametrize(
    "text",
    ["", "---\na: 1\n", "a: 1\n---\nb: 2\n...\n---\nc: é\n", "x: '\n---\n'\n" + "y: 2\n" * 40],
)
def test_the_largest_document_is_measured_alike_in_text_and_bytes(text: str) -> None:
    """In bytes it counts a document's UTF-8 bytes: as many as its characters when ASCII."""
    in_bytes = taugen.validate.objects.largest_document(text.encode())
    assert in_bytes >= taugen.validate.objects.largest_document(text)
    assert (in_bytes == taugen.validate.objects.largest_document(text)) is text.isascii()
    assert taugen.validate.objects.objects_fit(text.encode()) == taugen.validate.objects.objects_fit(text)


def _checked(*nodes: dict[str, Any]) -> Elsewhere:
    """These Nodes as emit/split.py summarizes them in the process that built them: checked there."""
    path = Path("out/c1/nodes/h200-141gb/nodes-2.yaml")
    files = {NODES: list(nodes)}
    found = summarized(files, {NODES: dump(list(nodes))})
    assert found is not None
    return Elsewhere((path,), (dump(list(nodes)),), found)


def test_a_summary_checked_where_it_was_made_says_what_clean_would() -> None:
    """Issue 36: each process looks at its own files' sizes and names; a wrong name or a file
    over the limit makes the summary say so, and the gate then steps aside as before."""
    store, roots = SchemaStore(), [Path("out/c1")]
    right = _checked(_node("c"))
    assert right.summary.checked is True
    assert clean(_files(_node("b")), [], store, roots, [right]) == frozenset({"h200-141gb"})
    for wrong in (_node("A"), _node("a", note="é" * 700_000)):
        refused = _checked(wrong)
        assert refused.summary.checked is False
        assert None is clean(_files(_node("b")), [], store, roots, [refused])
    # a vouched summary is taken at its word: the names are not looked at again (the saving)
    trusted = _elsewhere(_node("A"))
    trusted.summary.checked = True
    assert clean([], [], store, roots, [trusted]) == frozenset({"h200-141gb"})


@pytest.mark.parametrize("split", [0, 1, 2, 3, 4])
def test_two_summaries_merged_are_the_summary_of_both(split: int) -> None:
    """emit/split.py merges the two processes' summaries: the same as one summary of all Nodes."""
    nodes = [
        _labelled("b", "tau.azure.com/site", "s1"),
        _node("a"),
        _labelled("c", "tau.azure.com/gpu-class", "h100-80gb"),
        _node("d", note="x"),
    ]
    first, second = nodes[:split], nodes[split:]
    merged = summary([first]).merged(summary([second]))
    assert merged == summary([first, second])
    class_only = {"tau.azure.com/gpu-class"}  # b's site label is not on every h200-141gb Node
    assert merged.carried == {"h200-141gb": class_only, "h100-80gb": class_only}
    one = summarized({NODES: first} if first else {}, {NODES: dump(first)} if first else {})
    other = summarized({NODES: second} if second else {}, {NODES: dump(second)} if second else {})
    assert one is not None and other is not None
    assert one.merged(other).checked is True
    other.checked = False
    assert one.merged(other).checked is False
    other.checked = None
    assert one.merged(other).checked is None
