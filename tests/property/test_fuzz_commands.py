"""Issue 32: no traceback on any input. Every command's readers get hostile bytes — the project,
an inventory, rules, a profile, the lock, a compiled file, a run, a workload set, a node list,
standard input — and every command that reads them must answer with exit 0, 1 or 2 and no
`Traceback` (exit 3 is a bug). The inputs are a built project with one file changed by one
mutation of tests/property/test_fuzz_inputs.py or one hostile payload of this round's attacks
(deep nesting, 5,000-digit numbers, template and shell text, control characters, a merge
conflict, a link out of the project). `HYPOTHESIS_PROFILE=long` draws 1,000 examples a property.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from taugen.cli import main
from tests.property.test_fuzz_inputs import LONG, MUTATIONS, Draw
from tests.support.helpers import write_yaml
from tests.support.runs import RENDER_CASES, build_lab
from tests.support.unit import kube_node, node_list

PROJECT_FILES = (
    "taugen.yaml",
    "inventory.yaml",
    "rules.yaml",
    "profiles/h200-train.yaml",
    "taugen.lock",
    "out/lab/clusterqueue.yaml",
    "out/lab/kustomization.yaml",
)
PROJECT_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("build",),
    ("build", "--check"),
    ("validate",),
    ("explain", "node", "h200-a0"),
    ("explain", "class", "h200-141gb"),
    ("explain", "tenant", "team-a"),
    ("inventory", "show"),
    ("profiles",),
    ("report", "--out", "page.html"),
    ("diff", "base"),
    ("diff", "base", "-o", "markdown"),
)
# (the file a command reads, the command)
FILE_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("run.yaml", ("render", "run.yaml")),
    ("run.yaml", ("preflight", "run.yaml")),
    ("workloads.yaml", ("simulate", "workloads.yaml")),
    ("workloads.yaml", ("report", "--out", "page.html", "--simulate", "workloads.yaml")),
    ("nodes.yaml", ("drift", "nodes.yaml")),
    ("nodes.yaml", ("inventory", "import", "nodes.yaml")),
    ("out/lab/topology.yaml", ("validate", "out/lab")),
    ("out/lab/topology.yaml", ("diff", "base", "out")),
)
STDIN_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("validate", "-"),
    ("diff", "base/lab", "-"),
    ("render", "-"),
    ("simulate", "-"),
    ("drift", "-"),
)
DEEP = b"[" * 3000 + b"]" * 3000
HOSTILE: tuple[bytes, ...] = (
    DEEP,
    b"{a: " * 200 + b"1" + b"}" * 200,
    b"9" * 5000,
    b'"50.' + b"0" * 4400 + b'%"',
    b'"' + b"9" * 4400 + b'"',
    b'"{{data}}"',
    b'"{{ .cluster }}"',
    b'"$(touch pwned)"',
    b'"\\u202eout"',
    b'"x\\n### heading @org/team #1"',
    b'"<img src=x onerror=alert(1)>"',
    b"/etc/passwd",
    b"../../victim",
    b"node.kubernetes.io/unschedulable",
    b"nvidia.com/gpu.deploy.driver",
    b"x" * 200_000,
    b"!!binary aGk=",
    b"&a [*a]",
)
CONFLICT = b"<<<<<<< ours\n%s=======\n%s>>>>>>> theirs\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lab project, built, with a copy of its tree as `base`, a run, a workload set and a
    node list beside it."""
    root = tmp_path_factory.mktemp("fuzz-commands") / "p"
    build_lab(root)
    shutil.copytree(root / "out", root / "base")
    shutil.copy(RENDER_CASES / "gpu-same-host.yaml", root / "run.yaml")
    run: dict[str, Any] = {"metadata": {"name": "r1", "namespace": "team-a"}, "profile": "h200-train"}
    run |= {"createdAt": "2026-11-29T10:00:00Z", "workers": 1, "resources": {"nvidia.com/gpu": 8}}
    write_yaml(root / "workloads.yaml", {"kind": "WorkloadSet", "cluster": "lab", "runs": [run]})
    write_yaml(root / "nodes.yaml", node_list([kube_node("h200-a0"), kube_node("cpu-0", gpus=0)]))
    return root


@contextmanager
def _copy(template: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="taugen-fuzz-") as folder:
        root = Path(folder) / "p"
        shutil.copytree(template, root, symlinks=True)
        cwd = Path.cwd()
        os.chdir(root)
        try:
            yield root
        finally:
            os.chdir(cwd)


@st.composite
def _hostile(draw: Draw, text: bytes) -> bytes:
    """`text` with one mutation: a near-valid change, a payload in place of a value or a line,
    the whole file replaced, or a merge conflict around it."""
    how = draw(st.sampled_from(["mutation", "value", "line", "whole", "conflict"]))
    if how == "mutation":
        mutated: bytes = draw(st.sampled_from(MUTATIONS))(draw, text)
        return mutated
    payload: bytes = draw(st.sampled_from(HOSTILE))
    lines = text.split(b"\n")
    at: int = draw(st.integers(0, max(len(lines) - 1, 0)))
    if how == "value" and b": " in lines[at]:
        key, _, _ = lines[at].partition(b": ")
        lines[at] = key + b": " + payload
        return b"\n".join(lines)
    if how in ("value", "line"):
        return b"\n".join([*lines[:at], payload, *lines[at:]])
    if how == "conflict":
        return CONFLICT % (text, payload + b"\n")
    return payload


def _invoke(args: tuple[str, ...], stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def _assert_answered(result: Result, what: Any) -> None:
    output = result.output + (result.stderr or "")
    assert result.exit_code in (0, 1, 2), (what, result.exit_code, output[-3000:])
    assert "Traceback" not in output, (what, output[-3000:])


@LONG
@given(st.data())
def test_project_commands_answer_any_changed_input(template: Path, data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(PROJECT_FILES))
    _answered_after_changing(template, target, data.draw(st.sampled_from(PROJECT_COMMANDS)), data)


@LONG
@given(st.data())
def test_file_commands_answer_any_file(template: Path, data: st.DataObject) -> None:
    target, command = data.draw(st.sampled_from(FILE_COMMANDS))
    _answered_after_changing(template, target, command, data)


def _answered_after_changing(
    template: Path, target: str, command: tuple[str, ...], data: st.DataObject
) -> None:
    """`command` answers (exit 0, 1 or 2, no traceback) with `target` of a copy made hostile."""
    with _copy(template) as root:
        path = root / target
        path.write_bytes(data.draw(_hostile(path.read_bytes())))
        _assert_answered(_invoke(command), (target, command))


@LONG
@given(st.data())
def test_commands_answer_any_standard_input(template: Path, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(STDIN_COMMANDS))
    source = data.draw(st.sampled_from(["run.yaml", "workloads.yaml", "nodes.yaml", "out/lab/topology.yaml"]))
    with _copy(template) as root:
        stream = data.draw(_hostile((root / source).read_bytes()))
        _assert_answered(_invoke(command, stream), (source, command))


@pytest.mark.parametrize("target", PROJECT_FILES)
def test_a_link_out_of_the_project_in_place_of_any_file(template: Path, target: str) -> None:
    """Every project command answers a file that is a link to /dev/zero or out of the project."""
    for outside in (Path("/dev/zero"), Path("/etc/hostname")):
        with _copy(template) as root:
            (root / target).unlink()
            (root / target).symlink_to(outside)
            for command in PROJECT_COMMANDS:
                _assert_answered(_invoke(command), (target, outside, command))


@pytest.mark.parametrize("target", PROJECT_FILES)
def test_every_payload_in_every_project_file(template: Path, target: str) -> None:
    """The payloads the properties draw from, each one in place of the file and inside a merge
    conflict with it, for the command CI runs first."""
    with _copy(template) as root:
        path = root / target
        original = path.read_bytes()
        for payload in HOSTILE:
            for text in (payload, CONFLICT % (original, payload + b"\n")):
                path.write_bytes(text)
                _assert_answered(_invoke(("build", "--check")), (target, payload[:40]))
