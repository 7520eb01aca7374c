"""`taugen profiles`, `render` and `preflight` through the CLI: output streams and exit codes (§6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.support.helpers import add_profile, write_yaml
from tests.support.runs import RENDER_CASES, build_lab, objects_of, run_doc

TORCHRUN = RENDER_CASES / "gpu-same-network-domain-torchrun.yaml"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _run_file(project: Path, name: str, profile: str = "h200-train", **fields: Any) -> Path:
    return write_yaml(project.parent / "runs" / f"{name}.yaml", run_doc(profile, **fields))


def test_render_prints_manifests_and_warns_on_stderr(run: Run, project: Path) -> None:
    result = run("render", TORCHRUN, "-c", project)
    assert result.exit_code == 0, result.output
    assert [o["kind"] for o in objects_of(result.stdout)] == ["Job", "Service"]
    assert "warning: multi-node torchrun" in result.stderr
    assert "warning" not in result.stdout


def test_render_patch(run: Run, project: Path) -> None:
    result = run("render", TORCHRUN, "-c", project, "--format", "patch")
    assert result.exit_code == 0, result.output
    (patch,) = objects_of(result.stdout)
    assert set(patch["spec"]["template"]["spec"]) == {
        "priorityClassName",
        "nodeSelector",
        "tolerations",
        "containers",
    }


def test_render_refuses_a_not_ready_profile(run: Run, project: Path) -> None:
    result = run("render", _run_file(project, "h100", profile="h100-any"), "-c", project)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "h100.yaml:6:10: error: profile h100-any is not ready in cluster lab" in result.stderr


def test_render_and_preflight_refuse_a_stale_catalog(run: Run, tmp_path: Path) -> None:
    project = build_lab(tmp_path)
    add_profile(project)
    for command in ("render", "preflight"):
        result = run(command, TORCHRUN, "-c", project)
        assert result.exit_code == 2, command
        assert "out/lab/profile-catalog.yaml" in result.stderr and "is stale" in result.stderr
        assert "hint: run `taugen build`" in result.stderr


def test_render_refuses_a_namespace_that_is_not_a_tenant(run: Run, project: Path) -> None:
    result = run("render", _run_file(project, "ns", namespace="team-z"), "-c", project)
    assert result.exit_code == 2
    assert "error: namespace team-z is not a tenant of cluster lab" in result.stderr


def test_preflight_exit_codes(run: Run, project: Path) -> None:
    eligible = run("preflight", _run_file(project, "two", workers=2, launcher="torchrun"), "-c", project)
    assert eligible.exit_code == 0, eligible.output
    assert eligible.stdout.startswith("preflight: run job in team-a, cluster lab: eligible\n")
    not_eligible = run("preflight", _run_file(project, "four", workers=4), "-c", project)
    assert not_eligible.exit_code == 1
    assert "FAIL  topology  no single tau.azure.com/network-domain holds 4 ranks" in not_eligible.stdout
    missing = run("preflight", project.parent / "runs" / "nowhere.yaml", "-c", project)
    assert missing.exit_code == 2 and "nowhere.yaml: error: file not found" in missing.stderr


def test_preflight_json(run: Run, project: Path) -> None:
    result = run("preflight", _run_file(project, "json", workers=4), "-c", project, "-o", "json")
    assert result.exit_code == 1
    body = json.loads(result.stdout)
    assert (body["verdict"], body["domain"]["name"], body["widerDomain"]["level"]) == (
        "not eligible",
        "eastus/ib-a",
        "tau.azure.com/site",
    )


def test_profiles(run: Run, project: Path) -> None:
    result = run("profiles", "-c", project)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "CLUSTER",
        "PROFILE",
        "TIER",
        "GPU-CLASS",
        "TOPOLOGY",
        "LEVEL",
        "READY",
        "NOTE",
    ]
    rows = {line.split()[1]: line for line in lines[1:]}
    assert rows["h100-any"].endswith("no     gpu-class h100-80gb has no nodes in cluster lab")
    assert rows["h200-v1"].endswith("yes    deprecated: use h200-v2")
    assert result.stderr == ""


def test_profiles_warns_when_the_catalog_is_stale(run: Run, tmp_path: Path) -> None:
    project = build_lab(tmp_path)
    profile = tmp_path / "profiles" / "h200-any.yaml"
    profile.write_text(profile.read_text().replace("unconstrained", "same-site"))
    result = run("profiles", "-c", project, "--cluster", "lab")
    assert result.exit_code == 0
    assert "warning: the profile catalog of cluster lab is stale" in result.stderr


def test_profiles_of_an_unknown_cluster(run: Run, project: Path) -> None:
    result = run("profiles", "-c", project, "--cluster", "prod")
    assert result.exit_code == 2
    assert "--cluster prod: the project has no such cluster" in result.stderr


def test_profiles_shows_only_the_profiles_named(run: Run, project: Path) -> None:
    """Issue 21: `taugen profiles NAME...`, as `kubectl get KIND NAME` (and what PROFILE completes)."""
    result = run("profiles", "h200-v1", "cpu-batch", "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    (table,) = json.loads(result.stdout)
    assert [p["name"] for p in table["profiles"]] == ["cpu-batch", "h200-v1"]  # the catalog's order


def test_profiles_of_an_unknown_name_names_the_one_meant(
    run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project.parent)
    result = run("profiles", "h200-trian", "gpu-any")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "out/lab/profile-catalog.yaml: error: no profile 'h200-trian' in the catalog of lab [usage]\n"
        "  hint: did you mean 'h200-train'?\n"
        "out/lab/profile-catalog.yaml: error: no profile 'gpu-any' in the catalog of lab [usage]\n"
        "  hint: profiles: a100-host, a100-site, cpu-batch, gb200-island, h100-any, h200-any, "
        "h200-train, h200-train-priority, h200-v1, h200-v2\n"
    )
