"""`taugen diff` through the CLI: formats, `--fail-on` and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import Run

CASES = Path(__file__).resolve().parents[1] / "cases" / "diff"


@pytest.fixture(autouse=True)
def in_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES)


def pair(case: str) -> tuple[str, str]:
    return f"{case}/base", f"{case}/head"


def test_text_is_plain_when_not_on_a_terminal(run: Run) -> None:
    result = run("diff", *pair("quota-and-slots-decrease"))
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        "Plan: 0 to add, 2 to change, 0 to remove — 3 risky   "
        "(quota-and-slots-decrease/base → quota-and-slots-decrease/head)"
    )
    assert "\033[" not in result.output
    assert "  capacity loss [capacity]: " in result.output


def test_no_difference_exits_0_even_with_fail_on_change(run: Run) -> None:
    result = run("diff", *pair("moved-between-files"), "--fail-on", "change")
    assert (result.exit_code, result.output.splitlines()[-1]) == (0, "No changes.")


@pytest.mark.parametrize(
    ("case", "fail_on", "code"),
    [
        ("quota-increase", None, 0),
        ("quota-increase", "change", 1),
        ("quota-increase", "risk", 0),
        ("quota-and-slots-decrease", "risk", 1),
        ("quota-and-slots-decrease", "capacity", 1),
        ("quota-and-slots-decrease", "placement", 0),
        ("node-relabel", "placement", 1),
        ("priority-value", "rejected", 1),
        ("priority-value", "priority", 1),
        ("priority-value", "capacity", 0),
    ],
)
def test_fail_on(run: Run, case: str, fail_on: str | None, code: int) -> None:
    options = ["--fail-on", fail_on] if fail_on else []
    assert run("diff", *pair(case), *options).exit_code == code


def test_json_holds_the_facts(run: Run) -> None:
    result = run("diff", *pair("localqueue-removed"), "-o", "json")
    body = json.loads(result.output)
    assert body["plan"] == {"add": 0, "change": 1, "remove": 1, "risky": 2}
    removed = body["changes"][1]
    assert removed["kind"] == "LocalQueue"
    assert (removed["namespace"], removed["name"], removed["object"]) == ("team-llm", "taugrid", "remove")
    assert removed["risks"] == [{"id": "capacity", "reason": "the LocalQueue is deleted"}]
    tenant = body["changes"][0]
    assert (tenant["field"], tenant["change"], tenant["old"]) == ("tenant namespace", "removed", "team-llm")


def test_markdown_is_a_pull_request_comment(run: Run) -> None:
    result = run("diff", *pair("topology-level-added"), "-o", "markdown")
    lines = result.output.splitlines()
    assert lines[:2] == [
        "<!-- taugen-diff -->",
        "### taugen diff: 0 to add, 1 to change, 0 to remove — 1 risky",
    ]
    assert "| (root) | 0 | 1 | 0 | 1 |" in lines
    assert "- Topology taugrid-gpu-topology: level tau.azure.com/rack added" in lines
    assert "<details open>" in lines


def test_the_project_output_is_the_default_head(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "taugen.yaml").write_text(
        "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\noutput: manifests\n"
        "clusters: [{name: c1, inventory: inventory.yaml, tenants: [{namespace: team-llm}]}]\n"
    )
    shutil.copytree(CASES / "quota-increase" / "head", tmp_path / "manifests")  # a link is refused (issue 32)
    monkeypatch.chdir(tmp_path)
    result = run("diff", str(CASES / "quota-increase" / "base"))
    assert result.exit_code == 0
    assert "~ ClusterQueue taugrid: flavor taugrid-h200-141gb nvidia.com/gpu 16 → 24" in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("nowhere", "quota-increase/head"), "nowhere: error: no such file or folder [io]"),
        (("git:-x",), "git:-x: error: not a Git revision [diff-source]"),
        (("quota-increase/base", "-o", "junit"), "Invalid value for '-o' / '--output'"),
        (("quota-increase/base", "--fail-on", "everything"), "Invalid value for '--fail-on'"),
    ],
)
def test_bad_input_exits_2(run: Run, args: tuple[str, ...], said: str) -> None:
    result = run("diff", *args)
    assert result.exit_code == 2
    assert said in result.output
