"""The build's gate (issue 3): `check_tree` rejects a compiled tree `taugen validate` would reject,
and `taugen build` then writes nothing, neither out/ nor taugen.lock."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import pytest

import taugen.compile.cluster
import taugen.write.cache
from taugen.compile.common import NO_TIERS
from taugen.compile.guarantee import NO_GUARANTEES, Guarantees
from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels import node_labels
from taugen.compile.quota import ClassQuota
from taugen.core.errors import FoundProblems
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster
from taugen.schedulers.kueue import Kueue
from taugen.schedulers.registry import registered
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, snapshot, write_project
from tests.support.validate import check_files

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "validate"
BUILT = CORPUS / "valid-built-tree"
SUMMARY = "the compiled tree does not validate; nothing was written"
HINT = "  hint: "
SUMMARY_LINE = re.compile(r"^\d+ resources in \d+ files — ")  # validate's last line; the gate needs none

MISSING_FLAVOR = ("clusterqueue.yaml", "- name: taugrid-h200-141gb", "- name: taugrid-h100-80gb")
UNKNOWN_NODE_FIELD = ("nodes/h200-141gb.yaml", "  name: h200-1\n", "  name: h200-1\n  nmae: h200-1\n")


def _built(*faults: tuple[str, str, str]) -> dict[str, bytes]:
    """The corpus's built tree as build hands it to check_tree (relative path -> bytes)."""
    files = {
        p.relative_to(BUILT).as_posix(): p.read_bytes()
        for p in sorted(BUILT.rglob("*"))
        if p.is_file() and p.name != "expected.yaml"
    }
    for rel, old, new in faults:
        assert files[rel].count(old.encode()) == 1, f"{rel}: {old!r} no longer matches the built tree"
        files[rel] = files[rel].replace(old.encode(), new.encode())
    return files


def _position(content: bytes, text: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of text."""
    before = content.decode()[: content.decode().index(text)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def _rejected(files: dict[str, bytes], root: Path) -> FoundProblems:
    with pytest.raises(FoundProblems) as caught:
        check_files(root / "out", {"c1": files})
    assert str(caught.value) == SUMMARY
    return caught.value


def test_a_valid_tree_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    check_files(tmp_path / "out", {"c1": _built()})


def test_a_warning_alone_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # flavor-nodes is a warning: a class that lost its last node keeps its flavor (R26)
    monkeypatch.chdir(tmp_path)
    content = (CORPUS / "flavor-nodes-warning" / "kueue.yaml").read_bytes()
    check_files(tmp_path / "out", {"c1": {"kueue.yaml": content}})


def test_a_clusterqueue_naming_a_missing_flavor_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    files = _built(MISSING_FLAVOR)
    error = _rejected(files, tmp_path)

    line, col = _position(files["clusterqueue.yaml"], "taugrid-h100-80gb")
    assert (
        f"out/c1/clusterqueue.yaml:{line}:{col}: error: ClusterQueue/taugrid: "
        "ResourceFlavor 'taugrid-h100-80gb' is not in the tree (clusterqueue-flavor)"
    ) in error.lines


def test_a_node_with_an_unknown_field_is_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    files = _built(UNKNOWN_NODE_FIELD)
    error = _rejected(files, tmp_path)

    line, col = _position(files["nodes/h200-141gb.yaml"], "nmae")
    prefix = f"out/c1/nodes/h200-141gb.yaml:{line}:{col}: error: Node/h200-1: "
    found = [x for x in error.lines if x.startswith(prefix)]
    assert len(found) == 1 and "unknown field 'nmae'" in found[0] and found[0].endswith("(schema)"), (
        error.lines
    )


def test_every_problem_is_listed_with_its_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    error = _rejected(_built(MISSING_FLAVOR, UNKNOWN_NODE_FIELD), tmp_path)

    errors = [i for i, x in enumerate(error.lines) if ": error: " in x]
    assert [re.sub(r":\d+:\d+: .*\((.+)\)$", r" \1", error.lines[i]) for i in errors] == [
        "out/c1/clusterqueue.yaml clusterqueue-flavor",
        "out/c1/nodes/h200-141gb.yaml schema",
    ]
    assert all(error.lines[i + 1].startswith(HINT) for i in errors)


def test_warnings_and_their_hints_stay_out_of_the_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the corpus's warning tree with an error added: only the error (and its hint) is listed
    monkeypatch.chdir(tmp_path)
    content = (CORPUS / "flavor-nodes-warning" / "kueue.yaml").read_bytes()
    broken = content.replace(b"clusterQueue: main", b"clusterQueue: gone")
    error = _rejected({"kueue.yaml": broken}, tmp_path)

    assert not any("warning" in x for x in error.lines), error.lines
    for index, line in enumerate(error.lines):
        if line.startswith(HINT):
            assert index > 0 and ": error: " in error.lines[index - 1], f"a hint of no error: {error.lines}"
    assert sum(": error: " in x for x in error.lines) == 1


def test_the_gate_reports_what_validate_reports(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same tree, compiled (bytes) or written: the same lines, positions included
    monkeypatch.chdir(tmp_path)
    files = _built(MISSING_FLAVOR, UNKNOWN_NODE_FIELD)
    for rel, content in files.items():
        (tmp_path / "out" / "c1" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "out" / "c1" / rel).write_bytes(content)
    error = _rejected(files, tmp_path)

    result = run("validate", "out/c1")
    assert result.exit_code == 1, result.output
    # validate also notes the CEL rules it did not check (issue 20); the gate lists errors only
    printed = [line for line in result.output.splitlines() if not line.startswith("note: ")]
    findings = [line for line in printed if not SUMMARY_LINE.match(line)]
    assert [line for line in error.lines if not SUMMARY_LINE.match(line)] == findings


# Sabotage in the build pipeline: a compiled tree that must never reach out/.
NodeLabels = Callable[[ResolvedCluster], list[Manifest]]


def _node_with_unknown_field(original: NodeLabels) -> NodeLabels:
    """taugen.commands.build's node_labels, but the first Node gets a misspelt spec field."""

    def broken(cluster: ResolvedCluster) -> list[Manifest]:
        first, *rest = original(cluster)
        return [Manifest(first.file, {**first.obj, "spec": {"unschedulabel": True}}), *rest]

    return broken


class _NoGpuFlavor(Kueue):
    """Kueue's backend, but the GPU ResourceFlavors go missing: the ClusterQueue names them."""

    def compile(
        self,
        cluster: ResolvedCluster,
        quotas: Sequence[ClassQuota],
        guarantees: Guarantees = NO_GUARANTEES,
        tiers: Tiers = NO_TIERS,
    ) -> list[Manifest]:
        manifests = super().compile(cluster, quotas, guarantees, tiers)
        return [
            m for m in manifests if not (m.kind == "ResourceFlavor" and "h200" in m.obj["metadata"]["name"])
        ]


SABOTAGE = {
    "node-unknown-field": ("nodes/h200-141gb/nodes.yaml", "Node/h200-0", "schema"),
    "flavor-missing": ("clusterqueue.yaml", "ClusterQueue/taugrid", "clusterqueue-flavor"),
}


def _sabotage(name: str, monkeypatch: pytest.MonkeyPatch) -> AbstractContextManager[object]:
    # A changed taugen: the no-op cache's key no longer matches, so the build compiles.
    monkeypatch.setattr(taugen.write.cache, "_compiler_digest", lambda: "a changed taugen")
    if name == "node-unknown-field":
        monkeypatch.setattr(taugen.compile.cluster, "node_labels", _node_with_unknown_field(node_labels))
        return nullcontext()
    return registered(_NoGpuFlavor())


def _assert_rejected(output: str, exit_code: int, sabotage: str) -> None:
    file, subject, rule = SABOTAGE[sabotage]
    assert "Traceback" not in output, output
    assert exit_code == 1, output
    pattern = rf"^out/c1/{re.escape(file)}:\d+:\d+: error: {re.escape(subject)}: .+ \({re.escape(rule)}\)$"
    assert re.search(pattern, output, re.MULTILINE), output
    assert SUMMARY in output


@pytest.mark.parametrize("sabotage", sorted(SABOTAGE))
def test_build_leaves_the_previous_tree_and_lock_untouched(
    sabotage: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1")]))
    monkeypatch.chdir(tmp_path)
    assert run("build", "-c", project).exit_code == 0
    assert (tmp_path / "out" / "c1" / "nodes" / "h200-141gb" / "nodes.yaml").is_file()
    before = snapshot(tmp_path)

    with _sabotage(sabotage, monkeypatch):
        result = run("build", "-c", project)

    _assert_rejected(result.output, result.exit_code, sabotage)
    assert snapshot(tmp_path) == before, "an invalid tree was written"


@pytest.mark.parametrize("sabotage", sorted(SABOTAGE))
def test_a_first_build_writes_no_out_and_no_lock(
    sabotage: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1")]))
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)

    with _sabotage(sabotage, monkeypatch):
        result = run("build", "-c", project)

    _assert_rejected(result.output, result.exit_code, sabotage)
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()
