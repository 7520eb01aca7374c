"""Issue 21: the CLI behaves as kubectl, git and terraform users expect."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.commands import build as build_command
from tests.conftest import REPO, Run


def test_every_command_finds_the_project_from_a_subfolder(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO / "examples" / "westus3-dev")
    result = run("build", "--check")
    assert (result.exit_code, result.stdout) == (0, "up to date\n"), result.output
    assert run("validate").exit_code == 0


def test_no_project_anywhere_says_how_to_start(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "deep" / "er")
    result = run("build")
    assert result.exit_code == 2
    assert result.stderr == (
        "taugen.yaml: error: no project file taugen.yaml [io]\n"
        "  hint: without -c taugen looks here and in every parent folder: "
        "pass -c FILE, or `taugen init` one\n"
    )


def test_an_explicit_config_is_never_searched_for(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO / "examples")
    result = run("build", "--check", "-c", "taugen.yaml")
    assert result.exit_code == 2 and "no project file taugen.yaml [io]" in result.stderr


def test_ctrl_c_exits_130_with_one_line(run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def interrupted(options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_command, "build", interrupted)
    result = run("build", "-c", REPO / "taugen.yaml")
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr == "interrupted: out/ and taugen.lock are whole (exit 130)\n"


@pytest.mark.parametrize(
    "args",
    [
        ("profiles",),
        ("inventory", "show", "--cluster", "westus3-dev"),
        ("explain", "class", "a100-80gb", "--cluster", "westus3-dev"),
        ("diff", "out", "out"),
    ],
    ids=["profiles", "inventory-show", "explain-class", "diff"],
)
def test_every_data_command_prints_json_and_the_same_as_yaml(run: Run, args: tuple[str, ...]) -> None:
    """Issue 21: one -o/--output everywhere; JSON everywhere; YAML is the same data."""
    import json

    import yaml

    config = ("-c", str(REPO / "taugen.yaml"))
    as_json = run(*args, *config, "-o", "json")
    as_yaml = run(*args, *config, "-o", "yaml")
    assert (as_json.exit_code, as_yaml.exit_code) == (0, 0), as_json.output + as_yaml.output
    assert yaml.safe_load(as_yaml.stdout) == json.loads(as_json.stdout)


def test_the_old_format_spelling_works_with_a_warning(run: Run) -> None:
    old = run("profiles", "-c", REPO / "taugen.yaml", "--format", "json")
    new = run("profiles", "-c", REPO / "taugen.yaml", "-o", "json")
    assert (old.exit_code, old.stdout) == (0, new.stdout)
    assert old.stderr == "warning: --format is deprecated: use -o/--output (it goes in the next release)\n"
    assert new.stderr == ""


def _complete(words: str) -> list[str]:
    """What bash completion offers for the last (maybe empty) word of `words`."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "_TAUGEN_COMPLETE": "bash_complete", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split(" ")) - 1)
    code = "from taugen.cli import main; main(prog_name='taugen')"
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    return [line.split(",", 1)[1] for line in run.stdout.splitlines()]


def test_cluster_names_and_gpu_classes_complete() -> None:
    """Issue 21: --cluster completes the project's clusters, CLASS the lock's gpu-classes."""
    assert _complete("taugen build --cluster e") == ["eastus-prod"]
    assert _complete("taugen drift x --cluster ") == [
        "eastus-prod",
        "westus3-dev",
        "northeurope-kai",
        "uswest2-eks",
    ]
    assert _complete("taugen explain class h") == ["h100-80gb", "h200-141gb"]


@pytest.mark.parametrize(
    ("text", "where", "plain"),
    [
        (
            "kind: Project\nclusters:\n  - name: c1\n    inventory: i.yaml\n   tenants: []\n",
            "taugen.yaml:5:4",
            "this line is indented differently from the lines it belongs with",
        ),
        ('kind: Project\nclusters:\n  - name: "c1\n', "taugen.yaml:3:11", "a quote that is never closed"),
    ],
    ids=["indentation", "open-quote"],
)
def test_yaml_syntax_errors_are_in_plain_words_at_the_line_to_fix(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, where: str, plain: str
) -> None:
    """Issue 21: the line to fix, and what the parser means, before its own words."""
    (tmp_path / "taugen.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = run("build")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{where}: error: {plain} (YAML: ")
