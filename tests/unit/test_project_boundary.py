"""Issue 32: what taugen.yaml names stays inside the project (the folder of taugen.yaml). A pull
request that sets `output:` (or an input path) absolute, climbing out with `..`, or through a
symbolic link, read or replaced another project's files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.helpers import gpu_node, inventory, snapshot, write_yaml
from tests.support.unit import line_of, problems_of, run_build, write_project


def _victim(tmp_path: Path) -> Path:
    """Another project's output root: a cluster folder of the same name as ours."""
    victim = tmp_path / "victim"
    (victim / "c1").mkdir(parents=True)
    (victim / "c1" / "precious.yaml").write_text("kind: ConfigMap\n")
    return victim


def _project(tmp_path: Path, **fields: Any) -> Path:
    project = write_project(tmp_path / "repo", inventory([gpu_node("h-0")]))
    data = yaml.safe_load(project.read_text())
    for key, value in fields.items():
        if key in ("inventory", "rules"):
            data["clusters"][0][key] = value
        else:
            data[key] = value
    return write_yaml(project, data)


@pytest.mark.parametrize(
    ("output", "why"),
    [
        ("../victim", "leads outside the project (the folder of taugen.yaml)"),
        ("sub/../../victim", "leads outside the project (the folder of taugen.yaml)"),
        ("{victim}", "is absolute: taugen reads and writes only inside the project"),
    ],
    ids=["dot-dot", "dot-dot-inside", "absolute"],
)
def test_an_output_outside_the_project_is_refused_at_its_position(
    tmp_path: Path, output: str, why: str
) -> None:
    victim = _victim(tmp_path)
    project = _project(tmp_path, output=output.format(victim=victim))
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.path, problem.line, problem.rule) == (project, line_of(project, "output:"), "project")
    assert problem.message.startswith("output: ") and problem.message.endswith(why)
    assert snapshot(tmp_path) == before


def test_an_output_reached_through_a_link_out_of_the_project_is_refused(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    project = _project(tmp_path, output="sub/victim")
    (project.parent / "sub").symlink_to(tmp_path)
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.line) == ("output", line_of(project, "output:"))
    assert problem.message == (
        f"output root {project.parent / 'sub/victim'} leads to {victim}, outside the project {project.parent}"
    )
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("field", ["inventory", "rules", "profiles", "crds"])
def test_an_input_outside_the_project_is_refused(tmp_path: Path, field: str) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: hunter2\n")
    value: str | list[str] = str(secret) if field == "inventory" else [str(secret)]
    (problem,) = problems_of(lambda: run_build(_project(tmp_path, **{field: value})))
    assert problem.rule == "project"
    assert problem.message.endswith("is absolute: taugen reads and writes only inside the project")


@pytest.mark.parametrize("field", ["inventory", "rules", "profiles", "crds"])
def test_an_input_linked_out_of_the_project_is_refused(tmp_path: Path, field: str) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: hunter2\n")
    value: str | list[str] = "link.yaml" if field == "inventory" else ["link.yaml"]
    project = _project(tmp_path, **{field: value})
    (project.parent / "link.yaml").symlink_to(secret)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path) == ("project", project)
    assert problem.message == (
        f"{project.parent / 'link.yaml'} leads to {secret}, outside the project {project.parent}, "
        "through a symbolic link"
    )
    assert "hunter2" not in problem.message


def test_a_profile_folder_may_not_hold_a_link_out_of_the_project(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: hunter2\n")
    project = _project(tmp_path)
    (project.parent / "profiles" / "zz.yaml").symlink_to(secret)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.line) == ("project", line_of(project, "- profiles"))
    assert problem.message.startswith(f"{project.parent / 'profiles' / 'zz.yaml'} leads to {secret},")


def test_paths_inside_the_project_still_build(tmp_path: Path) -> None:
    """A `..` that stays inside, and a link that stays inside, are fine."""
    project = _project(tmp_path, output="sub/../out")
    (project.parent / "inventory-link.yaml").symlink_to(project.parent / "inventory.yaml")
    data = yaml.safe_load(project.read_text())
    data["clusters"][0]["inventory"] = "inventory-link.yaml"
    write_yaml(project, data)
    assert run_build(project).written == ("c1", "taugen.lock")
