"""Issue 21: `-` reads standard input wherever a command reads a file it does not write."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from taugen.cli import main
from taugen.load import limits
from tests.conftest import REPO, Run


def _run(stdin: bytes, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_validate_reads_a_stream_as_kubectl_kustomize_prints_it() -> None:
    tree = b"---\n".join((REPO / "out" / "westus3-dev" / f).read_bytes() for f in ("topology.yaml",))
    code, out, _ = _run(tree, "validate", "-")
    assert (code, out.splitlines()[-1]) == (0, "1 resources in 1 files — valid 1, invalid 0, skipped 0")


def test_a_problem_in_standard_input_is_named_stdin() -> None:
    queue = (REPO / "out" / "westus3-dev" / "clusterqueue.yaml").read_bytes()
    code, out, _ = _run(queue, "validate", "-")
    assert code == 1
    assert out.splitlines()[0].startswith("<stdin>:29:13: error: ClusterQueue/taugrid-dev: ResourceFlavor")


def test_drift_reads_a_node_list_from_standard_input() -> None:
    nodes = (REPO / "examples" / "westus3-dev" / "nodes.json").read_bytes()
    code, out, _ = _run(nodes, "drift", "-", "-c", str(REPO / "taugen.yaml"), "--cluster", "westus3-dev")
    from_file = CliRunner().invoke(
        main,
        [
            "drift",
            str(REPO / "examples" / "westus3-dev" / "nodes.json"),
            "-c",
            str(REPO / "taugen.yaml"),
            "--cluster",
            "westus3-dev",
        ],
    )
    assert (code, out) == (from_file.exit_code, from_file.stdout)
    assert out.startswith("cluster westus3-dev: drift\n")


def _stream(cluster: str) -> bytes:
    """The cluster's tree as `kubectl kustomize` prints it: its objects, one stream."""
    files = sorted((REPO / "out" / cluster).glob("*.yaml"))
    return b"".join(b"---\n" + f.read_bytes() for f in files if f.name != "kustomization.yaml")


def test_diff_reads_a_tree_from_standard_input() -> None:
    """`kubectl kustomize out/westus3-dev | taugen diff out/westus3-dev -`: only the node
    shards (a folder of their own, not in the stream) differ; the stream is named <stdin>."""
    code, out, err = _run(
        _stream("westus3-dev"), "diff", str(REPO / "out" / "westus3-dev"), "-", "-o", "json"
    )
    assert (code, err) == (0, "")
    import json

    found = json.loads(out)
    assert found["head"] == "<stdin>"
    assert {c["kind"] for c in found["changes"]} == {"Node"}


def test_a_workload_set_from_standard_input_is_named_stdin() -> None:
    workloads = (REPO / "examples" / "simulate" / "eastus-prod.yaml").read_bytes()
    out_root = str(REPO / "out")
    code, out, err = _run(
        workloads, "diff", out_root, out_root, "--simulate", "-", "-c", str(REPO / "taugen.yaml")
    )
    assert (code, err) == (0, "")
    assert "Simulation (<stdin> on eastus-prod, 6 runs)\n" in out


def test_standard_input_is_one_argument_only() -> None:
    code, out, err = _run(b"", "diff", "-", "-", "-c", str(REPO / "taugen.yaml"))
    assert (code, out) == (2, "")
    assert err.endswith(
        "Error: Invalid value for '[HEAD]': standard input is already another argument's `-`\n"
    )


class _Endless(io.RawIOBase):
    """A stream of `---\\n` documents that counts what was read from it."""

    def __init__(self, size: int) -> None:
        self.left, self.served = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.left)
        buffer[:count] = b"-" * count
        self.left -= count
        self.served += count
        return count


def test_standard_input_past_the_size_limit_is_refused_after_the_limit_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 32: standard input was read whole before the size limit was checked (2 GB: a
    MemoryError). At most the limit and one byte more are read."""
    monkeypatch.setattr(limits, "MAX_BYTES", 10_000)
    stream = _Endless(50 * 10_000)
    result = CliRunner().invoke(
        main, ["validate", "-"], input=io.BufferedReader(stream), catch_exceptions=False
    )
    assert result.exit_code == 2
    assert "standard input is larger than an input may be, 10,000 bytes" in result.stderr
    assert stream.served <= 10_001 + io.DEFAULT_BUFFER_SIZE  # the reader's one buffer, not the stream


@pytest.mark.parametrize(
    "args",
    [("diff", "-", "-"), ("diff", "-", "--fail-on", "everything"), ("validate", "-")],
    ids=["two-dashes", "usage-error-after", "ran"],
)
def test_no_copy_of_standard_input_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """Issue 32: `diff - -` is a usage error raised while click parses, which never closed the
    command's context: the first `-`'s private copy stayed behind."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, list(args), input=b"kind: List\nitems: []\n")
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("stream", [b"", b"---\n---\n", b"# only a comment\n"])
def test_validate_of_nothing_is_a_finding_not_a_pass(stream: bytes) -> None:
    """Issue 32: `kubectl kustomize out | taugen validate -` passed when kustomize printed
    nothing (0 resources, exit 0)."""
    code, out, _ = _run(stream, "validate", "-")
    assert (code, out.splitlines()[:2]) == (
        1,
        [
            "<stdin>: error: file: nothing to validate: no Kubernetes object in it (io)",
            "  hint: name the compiled tree, or a file or stream that holds its objects",
        ],
    )


def test_validate_of_an_empty_folder_is_a_finding(tmp_path: Path, run: Run) -> None:
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and "nothing to validate" in result.output
