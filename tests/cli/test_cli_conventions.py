"""Issue 21: the CLI behaves as kubectl, git and terraform users expect."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.commands import build as build_command
from tests.conftest import REPO, Run
from tests.unit.test_cli_startup import HEAVY


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
        ("validate",),
        ("preflight", "examples/runs/llama-pretrain.yaml"),
        ("simulate", "examples/simulate/eastus-prod.yaml"),
        ("explain", "node", "aks-a100-57721566-vmss000000", "--cluster", "westus3-dev"),
    ],
    ids=[
        "profiles",
        "inventory-show",
        "explain-class",
        "diff",
        "validate",
        "preflight",
        "simulate",
        "explain-node",
    ],
)
def test_every_data_command_prints_json_and_the_same_as_yaml(
    run: Run, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: one -o/--output everywhere; JSON everywhere; YAML is the same data."""
    import json

    monkeypatch.chdir(REPO)

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


def _complete(words: str, cwd: Path = REPO) -> list[str]:
    """What bash completion offers for the last (maybe empty) word of `words`."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "_TAUGEN_COMPLETE": "bash_complete", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split(" ")) - 1)
    run = subprocess.run([sys.executable, "-m", "taugen"], cwd=cwd, env=env, capture_output=True, text=True)
    assert "Traceback" not in run.stderr, run.stderr
    return [line.split(",", 1)[1] for line in run.stdout.splitlines() if line]


def test_cluster_names_and_gpu_classes_complete() -> None:
    """Issue 21: --cluster completes the project's clusters, CLASS the lock's gpu-classes."""
    assert _complete("taugen build --cluster e") == ["eastus-prod"]
    assert _complete("taugen drift x --cluster ") == [
        "eastus-prod",
        "westus3-dev",
        "westus2-dev",
        "fleet-hub",
        "northeurope-kai",
        "uswest2-eks",
    ]
    assert _complete("taugen explain class h") == ["h100-80gb", "h200-141gb"]


def test_profile_names_complete_from_the_profiles_the_project_reads() -> None:
    """Issue 21: PROFILE of `taugen profiles` completes the project's profiles (here the
    built-in ones), read only when asked; from a subfolder too, and with -c another project's."""
    builtin = ["h100-any", "h100-multi-node", "h200-training", "h200-training-priority"]
    assert _complete("taugen profiles h") == builtin
    assert _complete("taugen profiles cpu-batch h2", REPO / "examples" / "runs") == builtin[2:]
    lab = REPO / "tests" / "cases" / "runs" / "project" / "taugen.yaml"
    assert _complete(f"taugen profiles -c {lab} h200-") == [
        "h200-any",
        "h200-train",
        "h200-train-priority",
        "h200-v1",
        "h200-v2",
    ]


def test_a_completion_request_imports_nothing_heavy() -> None:
    """Issue 21: a TAB press is a fresh process (0.3 s at most: the benchmark's `complete`
    figure); it reads the project with PyYAML's C loader, never through the models."""
    import os
    import subprocess
    import sys

    probe = (
        "import atexit, sys\n"
        f"HEAVY = {set(HEAVY)!r}\n"
        "tops = lambda: {m.split('.')[0] for m in sys.modules}\n"
        "atexit.register(lambda: print(sorted(tops() & HEAVY), file=sys.stderr))\n"
        "from taugen.cli import main\n"
        "main(prog_name='taugen')\n"
    )
    words = "taugen profiles --cluster westus3-dev h200-t"
    env = {**os.environ, "_TAUGEN_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": "4"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.stdout == "plain,h200-training\nplain,h200-training-priority\n"
    assert done.stderr == "['yaml']\n"


@pytest.mark.parametrize(
    ("text", "where", "plain"),
    [
        (
            "kind: Project\nclusters:\n  - name: c1\n    inventory: i.yaml\n   tenants: []\n",
            "taugen.yaml:5:4",
            "this line is indented differently from the lines it belongs with",
        ),
        ('kind: Project\nclusters:\n  - name: "c1\n', "taugen.yaml:3:11", "a quote that is never closed"),
        # the stream ends inside a flow collection: where it opened, never a line past the end
        ("kind: Project\nclusters: [c1, c2\n", "taugen.yaml:2:11", "a `[...]` list that is not closed"),
        ("kind: Project\nclusters: {\n", "taugen.yaml:2:12", "expected the node content"),
    ],
    ids=["indentation", "open-quote", "open-list", "open-flow-at-end"],
)
def test_yaml_syntax_errors_are_in_plain_words_at_the_line_to_fix(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, where: str, plain: str
) -> None:
    """Issue 21: the line to fix, and what the parser means, before its own words."""
    (tmp_path / "taugen.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = run("build")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{where}: error: {plain}")


def test_nothing_taugen_prints_or_ships_names_the_old_format_spelling() -> None:
    """Issue 21: messages, the PR comment, docs, examples and recipes say -o/--output; only
    `render --format manifest|patch` (what is rendered, not how it is printed) keeps the word."""
    import re

    old = re.compile(r"--format (?!manifest|patch)")
    shipped = [
        *(p for p in (REPO / "taugen").rglob("*") if p.suffix in (".py", ".yaml", ".yml", ".md")),
        *(REPO / "docs").glob("*.md"),
        *(p for p in (REPO / "examples").rglob("*") if p.is_file()),
        REPO / "action.yml",
        REPO / "README.md",
    ]
    found = [
        f"{p.relative_to(REPO)}:{n}"
        for p in shipped
        if p != REPO / "taugen" / "cli" / "options.py"  # where the old spelling is still parsed
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if old.search(line)
    ]
    assert found == []
    assert len(shipped) > 100


def test_completion_offers_names_only_never_shell_text(tmp_path: Path) -> None:
    """Issue 32: bash types a completion into the command line as it is, so a cluster name
    `$(touch pwned)` in a pull request's taugen.yaml ran when the reviewer pressed Enter; a
    5,000-digit integer name (past Python's int-to-text limit) was a traceback."""
    import json

    names = ['"$(touch pwned)"', "ok-1", '"a b"', '"`id`"', '"*"', "12", "null", "UPPER", "c2"]
    (tmp_path / "taugen.yaml").write_text(
        "kind: Project\nclusters:\n" + "".join(f"  - name: {n}\n" for n in names)
    )
    lock = {"clusters": {"c": {"gpuQuota": {"$(id)": 8, "h200-141gb": 8}}}}
    (tmp_path / "taugen.lock").write_text(json.dumps(lock))
    assert _complete("taugen build --cluster ", tmp_path) == ["ok-1", "c2"]
    assert _complete("taugen explain class ", tmp_path) == ["h200-141gb"]
    assert not (tmp_path / "pwned").exists()
    (tmp_path / "taugen.yaml").write_text("kind: Project\nclusters:\n  - name: " + "1" * 5000 + "\n")
    assert _complete("taugen build --cluster ", tmp_path) == []  # and no traceback


def test_completion_reads_no_large_or_special_file(tmp_path: Path) -> None:
    """Issue 32: a 3 GB profile was read whole (MemoryError, a traceback) on a TAB press."""
    import os

    profile = "kind: WorkloadProfile\nmetadata: {name: big}\n"
    (tmp_path / "taugen.yaml").write_text("kind: Project\nprofiles: [big.yaml, small.yaml]\nclusters: []\n")
    (tmp_path / "big.yaml").write_text(profile + "# " + "x" * (16 << 20) + "\n")
    (tmp_path / "small.yaml").write_text(profile.replace("big", "small"))
    os.mkfifo(tmp_path / "taugen.lock")  # reading it would wait for a writer forever
    assert _complete("taugen profiles ", tmp_path) == ["small"]
    assert _complete("taugen explain class ", tmp_path) == []
