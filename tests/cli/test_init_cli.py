"""`taugen init` through the CLI: a scaffold that builds, validates and checks with only the
inventory supplied; the pre-commit hooks' entry points; shell completion (issue 8)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from taugen.cli import main
from tests.conftest import REPO, Run
from tests.support.helpers import gpu_node, inventory, write_yaml

CLUSTER = "eastus-prod"
NET, ACC = "net.unbounded-cloud.io/network-domain", "net.unbounded-cloud.io/accelerator-domain"


NODE_FILES = [
    "h200-141gb/nodes.yaml",
    "h200-141gb.ib-1/nodes.yaml",
]  # nodelabels/shards.py: one shard per class and network domain


def _fleet() -> dict[str, object]:
    rack = {NET: "ib-1", ACC: "rack-1"}
    nodes = [
        gpu_node("h200-0", labels=rack),
        gpu_node("h200-1", labels=rack),
        gpu_node("x-0", "Standard_Custom_H200_v5"),
    ]
    return inventory(nodes, name=CLUSTER)


@pytest.fixture
def scaffold(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> Path:
    result = run("init", tmp_path / "config", "--cluster", CLUSTER)
    assert result.exit_code == 0, result.output
    monkeypatch.chdir(tmp_path / "config")
    return tmp_path / "config"


def test_init_then_build_validate_and_check_with_only_the_inventory(scaffold: Path, run: Run) -> None:
    write_yaml(scaffold / "inventory" / f"{CLUSTER}.yaml", _fleet())
    build = run("build")
    assert build.exit_code == 0, build.output
    assert build.output == (
        f"taugen.lock: warning: taugen.lock is missing and out/{CLUSTER} holds no queue: cluster {CLUSTER} "
        "starts a new GPU quota history [R26]\n"
        "  hint: expected for a new cluster; otherwise restore taugen.lock from Git before building\n"
        f"wrote {CLUSTER}, _argocd, _flux, taugen.lock\n"  # G6: the scaffold's gitops block
    )
    validate = run("validate")
    assert validate.exit_code == 0, validate.output
    assert "invalid 0" in validate.output
    check = run("build", "--check")
    assert (check.exit_code, check.output) == (0, "up to date\n")
    nodes = scaffold / "out" / CLUSTER / "nodes"
    found = sorted(p.relative_to(nodes).as_posix() for p in nodes.rglob("*.yaml"))
    assert found == sorted(
        [*NODE_FILES, *(f.replace("nodes.yaml", "kustomization.yaml") for f in NODE_FILES)]
    )


def test_the_placeholder_inventory_builds_and_labels_nothing(scaffold: Path, run: Run) -> None:
    assert run("build").exit_code == 0
    assert run("validate").exit_code == 0
    assert not (scaffold / "out" / CLUSTER / "nodes").exists()


def test_init_with_nfd_builds_nodefeaturerules(scaffold: Path, run: Run) -> None:
    project = scaffold / "taugen.yaml"
    project.write_text(project.read_text().replace("nodeLabels: node ", "nodeLabels: nfd  "))
    write_yaml(scaffold / "inventory" / f"{CLUSTER}.yaml", _fleet())
    assert run("build").exit_code == 0
    assert run("validate").exit_code == 0
    (obj,) = yaml.safe_load_all((scaffold / "out" / CLUSTER / "nodes" / NODE_FILES[1]).read_text())
    assert obj["kind"] == "NodeFeatureRule"


def test_init_refuses_to_overwrite_exit_2(scaffold: Path, run: Run) -> None:
    before = {p: p.read_bytes() for p in scaffold.rglob("*") if p.is_file()}
    result = run("init", ".", "--cluster", CLUSTER)
    assert result.exit_code == 2
    count = len(before)
    assert (
        f"error: refusing to overwrite {count} existing file(s) in .: taugen.yaml, inventory/"
        in result.output
    )
    assert {p: p.read_bytes() for p in scaffold.rglob("*") if p.is_file()} == before


def test_init_bad_cluster_name_exit_2(tmp_path: Path, run: Run) -> None:
    result = run("init", tmp_path / "x", "--cluster", "Bad_Name")
    assert result.exit_code == 2
    assert "error: --cluster 'Bad_Name' must be lower-case" in result.output
    assert not (tmp_path / "x").exists()


# --- the pre-commit hooks of this repository, run as pre-commit runs them -------------------

HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())


def _hook(hook_id: str, run: Run) -> int:
    (hook,) = [h for h in HOOKS if h["id"] == hook_id]
    program, *args = shlex.split(hook["entry"])
    assert program == "taugen"  # the console script pip installs ([project.scripts])
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    return run(*args).exit_code


def test_pre_commit_hooks_pass_on_a_built_scaffold(scaffold: Path, run: Run) -> None:
    write_yaml(scaffold / "inventory" / f"{CLUSTER}.yaml", _fleet())
    assert run("build").exit_code == 0
    assert [_hook(h["id"], run) for h in HOOKS] == [0, 0]


def test_build_check_hook_fails_when_out_is_stale(scaffold: Path, run: Run) -> None:
    assert run("build").exit_code == 0
    write_yaml(scaffold / "inventory" / f"{CLUSTER}.yaml", _fleet())
    assert _hook("taugen-build-check", run) == 1


# --- shell completion through click ---------------------------------------------------------


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o nosort -F _taugen_completion taugen"),
        ("zsh", "#compdef taugen"),
        ("fish", "complete --no-files --command taugen"),
    ],
)
def test_completion_script_is_produced(shell: str, marker: str) -> None:
    result = CliRunner().invoke(main, [], env={"_TAUGEN_COMPLETE": f"{shell}_source"}, prog_name="taugen")
    assert result.exit_code == 0
    assert marker in result.output


def test_completion_completes_commands() -> None:
    env = {"_TAUGEN_COMPLETE": "bash_complete", "COMP_WORDS": "taugen ini", "COMP_CWORD": "1"}
    result = CliRunner().invoke(main, [], env=env, prog_name="taugen")
    assert result.output.split() == ["plain,init"]


@pytest.mark.parametrize(
    ("platform", "nodes"),
    [("eks", "eks-p4d.yaml"), ("gke", "gke-a3-a4.yaml"), ("onprem", "gb200-nvl72.yaml")],
)
def test_r36_r41_init_platform_builds_that_platforms_nodelist(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, platform: str, nodes: str
) -> None:
    result = run("init", tmp_path / "config", "--cluster", CLUSTER, "--platform", platform)
    assert result.exit_code == 0, result.output
    monkeypatch.chdir(tmp_path / "config")
    data = REPO / "tests" / "data" / "platforms" / nodes
    (tmp_path / "config" / "inventory" / f"{CLUSTER}.yaml").write_bytes(data.read_bytes())
    build = run("build")
    assert build.exit_code == 0, build.output
    warned = [line for line in build.output.splitlines() if ": warning: " in line]
    expected = 1 if platform != "onprem" else 5  # onprem: the GB200 trays carry no nvidia.com/gpu taint (R39)
    assert (len(warned), warned[0].endswith("[R26]")) == (expected, True)
    assert all(line.endswith("[R39]") for line in warned[1:])


@pytest.mark.parametrize("valueless", [False, True])
def test_r39_the_eks_scaffold_matches_the_gpu_taint_with_or_without_a_value(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, valueless: bool
) -> None:
    """Issue 34 (5): EKS GPU nodes carry `nvidia.com/gpu:NoSchedule` with a value or without; the
    scaffold's gpuNodeTaints names the key only, so both build without an R39 warning."""
    assert run("init", tmp_path / "config", "--cluster", CLUSTER, "--platform", "eks").exit_code == 0
    monkeypatch.chdir(tmp_path / "config")
    nodes = yaml.safe_load((REPO / "tests" / "data" / "platforms" / "eks-p4d.yaml").read_text())
    for item in nodes["items"]:
        for taint in item["spec"].get("taints", []) if valueless else []:
            del taint["value"]
    write_yaml(tmp_path / "config" / "inventory" / f"{CLUSTER}.yaml", nodes)
    build = run("build")
    assert build.exit_code == 0, build.output
    assert [line for line in build.output.splitlines() if ": warning: " in line][1:] == []
    path = tmp_path / "config" / "out" / CLUSTER / "resourceflavors.yaml"
    gpu = [
        f["spec"]
        for f in yaml.safe_load_all(path.read_text())
        if f["metadata"]["name"] != "taugrid-default-cpu"
    ]
    assert gpu and all(s["nodeTaints"] == [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}] for s in gpu)
