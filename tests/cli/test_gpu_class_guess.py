"""Issue 21: wherever a user names a gpu-class that no rule gives, taugen names the class a
near miss meant (against the built-in table and the project's rules), at the line to fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from taugen.cli import main
from tests.conftest import REPO, Run

CONFIG = REPO / "taugen.yaml"
TYPO = "h200-141g"  # one letter short of the built-in H200 size's class


def test_preflight_names_the_class_a_run_meant(run: Run, tmp_path: Path) -> None:
    text = (REPO / "examples" / "runs" / "llama-pretrain.yaml").read_text()
    run_file = tmp_path / "run.yaml"
    run_file.write_text(text.replace("{priority_tier: priority}", f"{{gpu_class: {TYPO}}}"))
    result = run("preflight", run_file, "-c", CONFIG)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{run_file}:10:21: error: no rule of cluster eastus-prod gives gpu-class {TYPO!r}: "
        "no node can have it [run]\n"
        "  hint: did you mean 'h200-141gb'?\n"
    )


def test_simulate_from_stdin_names_the_class_a_run_meant() -> None:
    """The same check in a WorkloadSet read from `-`, positioned in the run it belongs to."""
    text = (REPO / "examples" / "simulate" / "eastus-prod.yaml").read_text()
    text = text.replace("policy: {priority_tier: priority}", "policy: {gpu_class: gb200-168gb}", 1)
    result = CliRunner().invoke(main, ["simulate", "-", "-c", str(CONFIG)], input=text)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "<stdin>:17:25: error: no rule of cluster eastus-prod gives gpu-class 'gb200-168gb': "
        "no node can have it [run]\n"
        "  hint: did you mean 'gb200-186gb'?\n"
    )


def test_build_warns_of_a_profile_naming_a_near_miss(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile is only not ready (R30): a warning at its gpu_class, and the build goes on.
    The built-in gb200 profile names a class no rule of westus3-dev gives, near none: no word."""
    for folder in ("examples", "profiles", "out"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    shutil.copy(REPO / "taugen.lock", tmp_path)
    (tmp_path / "taugen.yaml").write_text(
        CONFIG.read_text().replace("# profiles: [profiles]", "profiles: [profiles]")
    )
    profile = tmp_path / "profiles" / "h200-training.yaml"
    profile.write_text(profile.read_text().replace("gpu_class: h200-141gb", f"gpu_class: {TYPO}"))
    monkeypatch.chdir(tmp_path / "examples")  # from a subfolder, as a user would
    result = run("build", "--cluster", "westus3-dev")
    assert (result.exit_code, result.stdout) == (0, "wrote westus3-dev, taugen.lock\n"), result.output
    line = 1 + profile.read_text().splitlines().index(f"  gpu_class: {TYPO}")
    assert result.stderr == (
        f"{profile}:{line}:14: warning: profile h200-training: no rule gives gpu-class {TYPO!r}, "
        "so it is never ready (R30) [profile]\n"
        "  hint: did you mean 'h200-141gb'?\n"
    )


def test_explain_class_names_the_class_a_typo_meant(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = run("explain", "class", "H200-141GB", "--cluster", "eastus-prod", "-c", CONFIG)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "examples/eastus-prod/inventory.yaml:15:3: error: cluster eastus-prod has no "
        "gpu-class H200-141GB [usage]\n"
        "  hint: did you mean h200-141gb?\n"
    )
