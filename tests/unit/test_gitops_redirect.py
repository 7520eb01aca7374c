"""Issue 32 (G6): a pull request that changes what Argo CD or Flux deploy. `gitops.path: shadow`
pointed every Application and Kustomization at a folder taugen never compiles (a cluster-admin
binding placed there passed `build --check`, `validate` and `diff --fail-on risk`); a changed
`repoURL` or `revision` was "0 risky"."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.engines.changes.engine import DiffOptions, diff
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import line_of, problems_of, run_build, write_project

GITOPS: dict[str, Any] = {
    "argocd": {"repoURL": "https://git.example.com/acme/q.git", "revision": "main"},
    "flux": {"sourceRef": {"kind": "GitRepository", "name": "queues"}},
}
BINDING = """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: pwned}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: User, name: mallory}]
"""


def _project(root: Path, gitops: dict[str, Any]) -> Path:
    project = write_project(root, inventory([gpu_node("h-0")]))
    return write_yaml(project, yaml.safe_load(project.read_text()) | {"gitops": gitops})


def _shadowed(tmp_path: Path) -> Path:
    """A repository whose taugen.yaml says it lies in shadow/, where the pull request put a tree."""
    (tmp_path / ".git").mkdir()
    project = _project(tmp_path, GITOPS | {"path": "shadow"})
    (tmp_path / "shadow" / "out" / "c1").mkdir(parents=True)
    (tmp_path / "shadow" / "out" / "c1" / "kustomization.yaml").write_text("resources: [rbac.yaml]\n")
    (tmp_path / "shadow" / "out" / "c1" / "rbac.yaml").write_text(BINDING)
    return project


@pytest.mark.parametrize("check", [False, True], ids=["build", "build-check"])
def test_a_gitops_path_that_is_not_where_taugen_yaml_lies_is_refused(tmp_path: Path, check: bool) -> None:
    project = _shadowed(tmp_path)
    (problem,) = problems_of(lambda: run_build(project, check=check))
    assert (problem.path, problem.line, problem.rule) == (
        project,
        line_of(project, "path: shadow"),
        "project",
    )
    assert problem.message == (
        "gitops.path 'shadow' is not the folder of taugen.yaml in its repository ('.'): "
        "Argo CD and Flux would deploy folders this build does not compile"
    )
    assert not (tmp_path / "out").exists()


def test_validate_refuses_it_too(tmp_path: Path) -> None:
    project = _shadowed(tmp_path)
    (problem,) = problems_of(lambda: validate_paths(ValidateOptions(project_file=project)))
    assert "gitops.path 'shadow' is not the folder of taugen.yaml" in problem.message


def test_a_project_in_a_subfolder_names_it(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("gitdir: /elsewhere/worktrees/x\n")  # a worktree's .git file
    project = _project(tmp_path / "clusters", GITOPS)
    (problem,) = problems_of(lambda: run_build(project))
    assert (
        problem.hint
        == "set `gitops.path: clusters` (or remove it when taugen.yaml is at the repository's root)"
    )
    project = _project(tmp_path / "clusters", GITOPS | {"path": "clusters/"})
    assert run_build(project).written == ("c1", "_argocd", "_flux", "taugen.lock")
    text = (tmp_path / "clusters" / "out" / "_argocd" / "applicationset.yaml").read_text()
    assert "path: clusters/out/c1\n" in text


def _risks(tmp_path: Path, change: dict[str, Any]) -> dict[str, list[str]]:
    """Build, keep the tree as `base`, change the gitops block, build again: headline -> risks."""
    project = _project(tmp_path, GITOPS)
    run_build(project)
    shutil.copytree(tmp_path / "out", tmp_path / "base")
    _project(tmp_path, change)
    run_build(project)
    result = diff(DiffOptions("base", None, tmp_path, Path("taugen.yaml")))
    return {e.headline: [r.id for r in e.risks] for e in result.entries}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"argocd": {**GITOPS["argocd"], "repoURL": "https://evil.example.com/q.git"}}, "repoURL"),
        ({"argocd": {**GITOPS["argocd"], "revision": "attacker-branch"}}, "targetRevision"),
        ({"flux": {"sourceRef": {"kind": "GitRepository", "name": "other"}}}, "sourceRef"),
        ({"path": "shadow"}, "path"),
    ],
    ids=["repoURL", "revision", "flux-source", "path"],
)
def test_a_change_of_what_is_deployed_is_a_source_risk(
    tmp_path: Path, change: dict[str, Any], field: str
) -> None:
    """Without a repository the path cannot be checked against one; diff still names it."""
    found = _risks(tmp_path, GITOPS | change)
    touched = {headline: risks for headline, risks in found.items() if field in headline}
    assert touched and all(risks == ["source"] for risks in touched.values()), found
    assert all(risks in ([], ["source"]) for risks in found.values()), found


def test_a_new_cluster_is_no_source_risk(tmp_path: Path) -> None:
    project = _project(tmp_path, GITOPS)
    run_build(project)
    shutil.copytree(tmp_path / "out", tmp_path / "base")
    data = yaml.safe_load(project.read_text())
    data["clusters"].append({**data["clusters"][0], "name": "c2"})
    write_yaml(project, data)
    run_build(project)
    result = diff(DiffOptions("base", None, tmp_path, Path("taugen.yaml")))
    assert result.entries and not [e.headline for e in result.entries if e.risks]


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("repoURL", "https://git.example.com/{{ .cluster }}.git", "holds a Go template delimiter"),
        ("revision", '{{ index . "path" }}', "holds a Go template delimiter"),
        ("revision", "main}}", "holds a Go template delimiter"),
        ("repoURL", "https://git.example.com/q.git\nspec: x", "holds '\\n'"),
        ("revision", "main branch", "holds ' '"),
    ],
)
def test_go_template_actions_never_reach_the_applicationset_template(
    tmp_path: Path, field: str, value: str, why: str
) -> None:
    """Issue 32: repoURL and revision are written into the ApplicationSet's template, which Argo CD
    renders as a Go template: `{{` there ran as a template action."""
    project = _project(tmp_path, {"argocd": {**GITOPS["argocd"], field: value}})
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path) == ("project", project)
    assert problem.message.startswith(f"gitops.argocd.{field}: ") and why in problem.message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["taugen-c1", "taugen-c1-h200-141gb"])
def test_flux_depends_on_names_none_of_taugens_own(tmp_path: Path, name: str) -> None:
    """Issue 32: `dependsOn: [{name: taugen-c1}]` made c1's core wait for itself (a shard's name:
    for a shard that waits for the core), and Flux applied nothing, silently."""
    project = _project(tmp_path, {"flux": {"dependsOn": [{"name": "kueue"}, {"name": name}]}})
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.line) == ("project", line_of(project, f"name: {name}"))
    assert problem.message == (
        f"gitops.flux.dependsOn.1.name: dependsOn {name!r} names one of taugen's own Kustomizations "
        "(taugen-…): the cores would wait for themselves and Flux would apply none of them"
    )
