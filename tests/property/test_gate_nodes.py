"""The build's gate checks its compiled Nodes in bulk (validate/built_nodes.py, issue 36): for any
Nodes, right or wrong, it passes or refuses exactly as validating them one by one does, with
the same lines, positions included (SPEC §4: build never writes what validate refuses)."""

from __future__ import annotations

import contextlib
import copy
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import taugen.commands.validate
import taugen.validate.gate
from taugen.api.kai import KAI_TOPOLOGY_API
from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.core.errors import FoundProblems, Problem
from taugen.emit.canonical import dump
from taugen.load.document import fast_documents
from taugen.validate.built_nodes import NOTHING, clean, summarized, vouch
from taugen.validate.gate import Apart, check_tree
from taugen.validate.report import as_json, junit, text

BUILT = Path(__file__).resolve().parent.parent / "cases" / "validate" / "valid-built-tree"
NODES = "nodes/h200-141gb.yaml"
OTHERS = {
    p.relative_to(BUILT).as_posix(): p.read_bytes()
    for p in sorted(BUILT.glob("*.yaml"))
    if p.name not in ("expected.yaml", "kustomization.yaml")
}
CLASS = "tau.azure.com/gpu-class"
LEVELS = ("tau.azure.com/site", "tau.azure.com/network-domain", "tau.azure.com/accelerator-domain")
RACK = "tau.azure.com/rack"  # the KAI Topology's level (drawn), no Kueue Topology's
KAI_TOPOLOGY = {
    "apiVersion": KAI_TOPOLOGY_API,
    "kind": "Topology",
    "metadata": {"name": "kai"},
    "spec": {"levels": [{"nodeLabel": RACK}, {"nodeLabel": "kubernetes.io/hostname"}]},
}
ANNOTATIONS = {"argocd.argoproj.io/sync-wave": "-2", "kustomize.toolkit.fluxcd.io/ssa": "Merge"}


def _node(i: int) -> dict[str, Any]:
    labels = {"app.kubernetes.io/managed-by": "taugen", CLASS: "h200-141gb", RACK: f"r{i % 3}"}
    labels |= {level: f"d{i % 2}" for level in LEVELS}
    meta = {"name": f"h200-{i}", "labels": labels, "annotations": dict(ANNOTATIONS)}
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta}


Fault = Callable[[list[dict[str, Any]], int], None]
_BAD_STRINGS = st.sampled_from(["Upper", "a\n", "-a", "a" * 64, "a" * 254, "", "a/b/c", "_a", "é"])
_VALUES = st.one_of(_BAD_STRINGS, st.sampled_from([0, 1.5, None, True, ["a"], {"a": "b"}, "fine"]))


def _set_name(value: Any) -> Fault:
    def fault(nodes: list[dict[str, Any]], i: int) -> None:
        nodes[i]["metadata"]["name"] = value

    return fault


def _set_label(key: Any, value: Any) -> Fault:
    def fault(nodes: list[dict[str, Any]], i: int) -> None:
        nodes[i]["metadata"]["labels"][key] = value

    return fault


def _drop_label(key: str) -> Fault:
    def fault(nodes: list[dict[str, Any]], i: int) -> None:
        nodes[i]["metadata"]["labels"].pop(key, None)

    return fault


def _set(path: tuple[str, ...], value: Any) -> Fault:
    def fault(nodes: list[dict[str, Any]], i: int) -> None:
        target = nodes[i]
        for step in path[:-1]:
            target = target.setdefault(step, {})
        target[path[-1]] = value

    return fault


def _same_name_as_first(nodes: list[dict[str, Any]], i: int) -> None:
    nodes[i]["metadata"]["name"] = nodes[0]["metadata"]["name"]


SETS = [
    (("spec", "unschedulable"), True),
    (("spec", "unschedulabel"), True),
    (("metadata", "namespace"), "default"),
    (("metadata", "annotations", "a"), 1),
    (("metadata", "annotations", "b/c/d"), "x"),
    (("metadata", "annotations", "big"), "x" * 300_000),
    (("metadata", "labels"), None),
    (("metadata", "labels"), ["a"]),
    (("metadata", "uid"), "u"),
    (("metadata", "uid"), 1),
    (("metadata", "generation"), "x"),
    (("status",), {}),
    (("apiVersion",), "v2"),
]
# each its own branch: one_of draws its branches alike, so every fault is met often
FAULTS: st.SearchStrategy[Fault] = st.one_of(
    _VALUES.map(_set_name),
    st.tuples(_BAD_STRINGS, _VALUES).map(lambda a: _set_label(*a)),
    st.tuples(st.sampled_from([CLASS, "x.io/ok"]), _VALUES).map(lambda a: _set_label(*a)),
    *(st.just(_drop_label(key)) for key in (*LEVELS, RACK, CLASS)),
    st.just(_same_name_as_first),
    *(st.just(_set(path, value)) for path, value in SETS),
    st.just(lambda nodes, i: nodes.__setitem__(i, "not an object")),
)


Check = Callable[..., frozenset[str] | None]


def _tree(
    nodes: list[dict[str, Any]], kai: bool, broken: bool
) -> tuple[dict[str, list[Any]], dict[str, bytes]]:
    """The corpus's built tree with these Nodes: objects and bytes by file. `broken`: the
    ClusterQueue names a flavor the tree lacks."""
    files = dict(OTHERS)
    if broken:
        queue = files["clusterqueue.yaml"]
        files["clusterqueue.yaml"] = queue.replace(b"- name: taugrid-h200-141gb", b"- name: gone", 1)
    if kai:
        files["kai-topology.yaml"] = dump([KAI_TOPOLOGY])
    objects = {rel: [d.data for d in fast_documents(Path(rel), text.decode())] for rel, text in files.items()}
    files[NODES] = yaml.safe_dump_all(nodes, sort_keys=False).encode()  # any object, not only a build's
    return {**objects, NODES: nodes}, files


def _gate(
    nodes: list[dict[str, Any]], kai: bool, check: Check, broken: bool = False
) -> list[str] | list[Problem]:
    """The gate's lines when it refuses the tree, else the warnings it returns; `check` stands
    in for built_nodes.clean."""
    with mock.patch.object(taugen.validate.gate, "clean", check):
        try:
            return taugen.validate.gate.check_tree(Path("out"), {"c1": _tree(nodes, kai, broken)})
        except FoundProblems as refused:
            return refused.lines


def _validate(root: Path, vouching: bool) -> tuple[str, str, str]:
    """`taugen validate root`'s text, JSON and JUnit reports, the bulk check on or off."""
    stand_in = vouch if vouching else (lambda *_: NOTHING)
    with mock.patch.object(taugen.commands.validate, "vouch", stand_in):
        report = validate_paths(ValidateOptions(paths=(root,), project_file=root / "no-project.yaml"))
    return text(report, Path.cwd()), as_json(report, Path.cwd()), junit(report, Path.cwd())


def _faulted(count: int, faults: list[tuple[Fault, int]]) -> list[dict[str, Any]]:
    nodes = [_node(i) for i in range(count)]
    for fault, at in faults:
        with contextlib.suppress(AttributeError, TypeError):  # an earlier fault left no mapping there
            fault(nodes, at % count)
    return nodes


DRAWN = st.builds(_faulted, st.integers(1, 6), st.lists(st.tuples(FAULTS, st.integers(0, 5)), max_size=2))


@settings(max_examples=200)
@given(nodes=DRAWN, kai=st.booleans(), broken=st.booleans())
def test_the_bulk_check_refuses_what_one_by_one_refuses(
    nodes: list[dict[str, Any]], kai: bool, broken: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # every line, the summary's count of resources included, the rest of the tree right or not
    monkeypatch.chdir(tmp_path)
    bulk = _gate(copy.deepcopy(nodes), kai, clean, broken)
    assert bulk == _gate(copy.deepcopy(nodes), kai, lambda *_: None, broken)


APART = "nodes/h200-141gb.d1/nodes-2.yaml"


def _renamed(nodes: list[Any]) -> list[Any]:
    for node in nodes:
        with contextlib.suppress(AttributeError, TypeError, KeyError):
            node["metadata"]["name"] = f"b-{node['metadata']['name']}"
    return nodes


def _gate_apart(here: list[Any], there: list[Any], kai: bool, broken: bool, summarize: bool) -> list[Any]:
    """The gate's lines or warnings with `there` in a file of its own, whose objects another
    process kept and summarized (emit/split.py) when `summarize` and it can; else sent along."""
    objects, texts = _tree(here, kai, broken)
    texts[APART] = yaml.safe_dump_all(there, sort_keys=False).encode()
    summary = summarized({APART: there}, {APART: texts[APART]}) if summarize else None
    whole = dict(sorted({**objects, APART: there}.items()))
    apart = {} if summary is None else {"c1": Apart((APART,), summary, lambda: {APART: there})}
    kept = {k: v for k, v in whole.items() if not apart or k != APART}
    try:
        return check_tree(Path("out"), {"c1": (kept, texts)}, (), apart)
    except FoundProblems as refused:
        return refused.lines


@settings(max_examples=200)
@given(here=DRAWN, there=DRAWN.map(_renamed), kai=st.booleans(), broken=st.booleans())
def test_nodes_summarized_by_another_process_pass_or_fail_as_if_sent(
    here: list[Any],
    there: list[Any],
    kai: bool,
    broken: bool,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # every line again: a summary in place of the Nodes changes nothing the gate says
    monkeypatch.chdir(tmp_path)
    apart = _gate_apart(copy.deepcopy(here), copy.deepcopy(there), kai, broken, summarize=True)
    assert apart == _gate_apart(copy.deepcopy(here), copy.deepcopy(there), kai, broken, summarize=False)


@settings(max_examples=30)
@given(count=st.integers(1, 6), kai=st.booleans())
def test_right_nodes_pass_the_bulk_check(count: int, kai: bool) -> None:
    # not vacuous: compiled Nodes as they should be take the bulk check, and it passes them
    calls: list[frozenset[str] | None] = []

    def spy(*args: Any) -> frozenset[str] | None:
        calls.append(clean(*args))
        return calls[-1]

    assert _gate([_node(i) for i in range(count)], kai, spy) == []
    assert calls == [frozenset({"h200-141gb"})]


@settings(max_examples=100)
@given(nodes=DRAWN, kai=st.booleans(), broken=st.booleans())
def test_validate_reports_the_same_with_the_bulk_check(
    nodes: list[dict[str, Any]], kai: bool, broken: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # every finding, warnings too (a flavor no vouched Node carries), and each resource's status
    monkeypatch.chdir(tmp_path)
    root = Path(tempfile.mkdtemp(dir=tmp_path))
    for rel, content in _tree(nodes, kai, broken)[1].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(content)
    assert _validate(root, vouching=True) == _validate(root, vouching=False)
