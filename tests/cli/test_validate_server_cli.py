"""Issue 31 item 6: `validate --server`'s bad input is one line and exit 2 (the dry runs themselves:
tests/realcluster/test_validate_server.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, Run

KUBECONFIG = {
    "apiVersion": "v1",
    "kind": "Config",
    "clusters": [{"name": "nowhere", "cluster": {"server": "https://127.0.0.1:1"}}],
    "users": [{"name": "u", "user": {"token": "t"}}],
    "contexts": [{"name": "nowhere", "context": {"cluster": "nowhere", "user": "u"}}],
    "current-context": "nowhere",
}


def test_a_cluster_that_does_not_answer_is_one_line_and_exit_2(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(yaml.safe_dump(KUBECONFIG))
    monkeypatch.chdir(REPO)
    result = run("validate", "out/eastus-prod/priorityclasses.yaml", "--server", "--kubeconfig", kubeconfig)
    assert result.exit_code == 2, result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert line.startswith("error: --server: the cluster at https://127.0.0.1:1 does not answer")


def test_an_unknown_context_is_one_line_and_exit_2(tmp_path: Path, run: Run) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(yaml.safe_dump(KUBECONFIG))
    path = REPO / "out" / "eastus-prod" / "priorityclasses.yaml"
    result = run("validate", path, "--server", "--kubeconfig", kubeconfig, "--context", "elsewhere")
    assert result.exit_code == 2, result.output
    assert "error: --server: cannot use the kubeconfig: " in result.output and "elsewhere" in result.output


def test_context_without_server_is_a_usage_error(run: Run) -> None:
    result = run("validate", REPO / "out" / "eastus-prod" / "priorityclasses.yaml", "--context", "x")
    assert result.exit_code == 2 and "--context and --kubeconfig go with --server" in result.output


def test_a_usage_error_a_command_finds_is_exit_2_not_a_bug(run: Run) -> None:
    # simulate --fleet with --cluster: click's usage error, raised inside the command
    result = run("simulate", REPO / "examples" / "workloads.yaml", "--fleet", "--cluster", "eastus-prod")
    assert result.exit_code == 2 and "drop --cluster, --tree and --cycles" in result.output, result.output
    assert "internal error" not in result.output
