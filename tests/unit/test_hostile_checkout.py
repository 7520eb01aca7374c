"""Issue 17: everything in the checkout but the inputs is written by whoever opened the pull
request — the staging folder, the lock, out/ — and none of it may turn the build against its
host or its own gate."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.write.journal import JOURNAL, lock_temporary, staging_dir
from tests.support.helpers import gpu_node, inventory, snapshot
from tests.support.unit import problems_of, run_build, write_project


def _built(tmp_path: Path) -> Path:
    project = write_project(tmp_path / "repo", inventory([gpu_node("h-0")]))
    run_build(project)
    return project


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep\n")
    return victim


@pytest.mark.parametrize(
    "journal",
    [
        {"swap": ["../../victim"], "drop": [], "lock": False},
        {"swap": [], "drop": ["/abs/victim"], "lock": False},
        {"swap": [], "drop": [], "lock": ["x", "/etc/passwd"]},
        {"swap": [], "drop": [], "lock": False, "hook": "../.git/hooks/pre-commit"},
        ["not", "a", "journal"],
    ],
    ids=["swap-escapes", "drop-absolute", "lock-paths", "unknown-key", "not-a-map"],
)
def test_a_committed_journal_that_names_paths_is_refused(tmp_path: Path, journal: object) -> None:
    """Item 1: recovery acted on paths a pull request wrote into journal.json."""
    project = _built(tmp_path)
    _victim(tmp_path)  # the snapshot below proves it untouched
    staging = staging_dir(project.parent / "out")
    staging.mkdir()
    (staging / JOURNAL).write_text(json.dumps(journal))
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path) == ("output", staging / JOURNAL)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("entry", ["../victim.old", "victim-link", "not a name.old"])
def test_a_staging_folder_holding_anything_but_cluster_folders_is_refused(tmp_path: Path, entry: str) -> None:
    project = _built(tmp_path)
    victim = _victim(tmp_path)
    staging = staging_dir(project.parent / "out")
    staging.mkdir()
    if entry == "victim-link":
        (staging / "c1.old").symlink_to(victim)
    else:
        (staging / entry.replace("../", "x")).mkdir()
    (problem,) = problems_of(lambda: run_build(project))
    assert problem.rule == "output"
    assert (victim / "precious.txt").read_text() == "keep\n"


def test_a_valid_committed_journal_only_moves_taugens_own_folders(tmp_path: Path) -> None:
    """A journal that passes the check names cluster folders; the build then rewrites them."""
    project = _built(tmp_path)
    out = project.parent / "out"
    good = snapshot(out)
    staging = staging_dir(out)
    (staging / "c1").mkdir(parents=True)
    (staging / "c1" / "evil.yaml").write_text("kind: Secret\n")
    lock_temporary(project.parent / "taugen.lock").write_text("{}")
    (staging / JOURNAL).write_text(json.dumps({"swap": ["c1"], "drop": [], "lock": True}))
    run_build(project)
    assert {k: v[0] for k, v in snapshot(out).items()} == {k: v[0] for k, v in good.items()}
    assert not staging.exists() and not lock_temporary(project.parent / "taugen.lock").exists()


def test_check_reports_a_committed_staging_folder(tmp_path: Path) -> None:
    project = _built(tmp_path)
    staging = staging_dir(project.parent / "out")
    staging.mkdir()
    (differences,) = run_build(project, check=True).differences
    assert differences.startswith(f"{staging.name}: left by an interrupted build")  # in the project folder


@pytest.mark.parametrize("key", ["../../victim", "/abs/victim", "victim\n", "UPPER"])
def test_a_lock_key_that_is_not_a_cluster_name_is_refused(tmp_path: Path, key: str) -> None:
    """Item 2: a lock key that is a path was taken for a dropped cluster and its folder deleted."""
    project = _built(tmp_path)
    victim = _victim(tmp_path)
    lock_path = project.parent / "taugen.lock"
    lock = json.loads(lock_path.read_text())
    lock["clusters"][key] = lock["clusters"]["c1"]
    lock_path.write_text(json.dumps(lock))
    problems = problems_of(lambda: run_build(project))
    assert {p.rule for p in problems} == {"lock"}
    assert "cluster name" in problems[0].message
    assert (victim / "precious.txt").read_text() == "keep\n"


def test_a_symlinked_lock_is_refused_not_written_through(tmp_path: Path) -> None:
    """Item 4: the lock was written at the link's target, outside the project."""
    project = _built(tmp_path)
    lock = project.parent / "taugen.lock"
    target = tmp_path / "elsewhere.lock"
    shutil.move(lock, target)
    lock.symlink_to(target)
    before = target.read_bytes()
    (problem,) = problems_of(lambda: run_build(project, allow_quota_decrease=True))
    assert (problem.rule, problem.message) == (
        "lock",
        "taugen.lock is a symbolic link: taugen never reads or writes a lock through one",
    )
    assert target.read_bytes() == before


@pytest.mark.parametrize("check", [False, True])
def test_a_stray_cluster_folder_is_an_error_in_build_and_check(tmp_path: Path, check: bool) -> None:
    """Item 8: out/rogue/ passed build, check and validate, and the ApplicationSet deployed it."""
    project = _built(tmp_path)
    rogue = project.parent / "out" / "rogue"
    rogue.mkdir()
    (rogue / "clusterqueue.yaml").write_text("kind: ClusterQueue\n")
    (problem,) = problems_of(lambda: run_build(project, check=check))
    assert problem.rule == "output"
    assert (
        problem.message
        == f"{rogue}: not the folder of a cluster of this project: Argo CD or Flux would deploy it"
    )


def test_a_stray_cluster_folder_is_an_error_in_validate(tmp_path: Path) -> None:
    project = _built(tmp_path)
    (project.parent / "out" / "rogue").mkdir()
    (problem,) = problems_of(lambda: validate_paths(ValidateOptions(project_file=project)))
    assert problem.rule == "output" and "rogue" in problem.message


def test_a_cluster_folder_that_is_a_link_is_refused_by_build_and_validate(tmp_path: Path) -> None:
    project = _built(tmp_path)
    folder = project.parent / "out" / "c1"
    shutil.move(folder, tmp_path / "moved")
    folder.symlink_to(tmp_path / "moved")
    for call in (lambda: run_build(project), lambda: validate_paths(ValidateOptions(project_file=project))):
        (problem,) = problems_of(call)
        assert problem.message == f"{folder}: is a symbolic link: taugen never writes through one"


@pytest.mark.parametrize("kind", ["dangling-link", "folder", "link-to-secret"])
def test_odd_entries_inside_a_cluster_folder_are_replaced_not_followed(tmp_path: Path, kind: str) -> None:
    """Item 7: a directory or dangling link inside out/<cluster> was exit 3."""
    project = _built(tmp_path)
    folder = project.parent / "out" / "c1"
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cret\n")
    odd = folder / "clusterqueue.yaml"
    odd.unlink()
    if kind == "dangling-link":
        odd.symlink_to(tmp_path / "nowhere")
    elif kind == "folder":
        odd.mkdir()
    else:
        odd.symlink_to(secret)
    differences = run_build(project, check=True).differences
    why = "missing (a build writes it)" if kind == "folder" else "differs from what taugen writes"
    assert differences == (f"out/c1/clusterqueue.yaml: {why}",)  # the link's own path, not its target
    assert run_build(project).written == ("c1",)
    assert odd.is_file() and not odd.is_symlink()
    assert run_build(project, check=True).differences == ()
    assert secret.read_text() == "s3cret\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_output_root_is_exit_2(tmp_path: Path) -> None:
    project = _built(tmp_path)
    out = project.parent / "out"
    from tests.support.helpers import write_yaml

    write_yaml(project.parent / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("h-1")]))
    out.chmod(0o555)
    project.parent.chmod(0o555)
    try:
        (problem,) = problems_of(lambda: run_build(project))
    finally:
        out.chmod(0o755)
        project.parent.chmod(0o755)
    assert problem.rule == "io"


def test_a_rules_file_linked_to_dev_zero_is_refused_not_read(tmp_path: Path) -> None:
    """Item 7: a rules file linked to /dev/zero was read until memory ran out (exit 3). Issue
    32: a link out of the project is refused before anything is opened; a FIFO inside it is not
    a regular file."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]), rules_doc={"extraNodeLabelRules": []})
    (tmp_path / "rules.yaml").unlink()
    (tmp_path / "rules.yaml").symlink_to("/dev/zero")
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.message) == (
        "project",
        f"{tmp_path / 'rules.yaml'} leads to /dev/zero, outside the project {tmp_path}, "
        "through a symbolic link",
    )
    (tmp_path / "rules.yaml").unlink()
    os.mkfifo(tmp_path / "rules.yaml")
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.message) == ("io", f"{tmp_path / 'rules.yaml'}: not a regular file")


def test_an_edited_catalog_is_never_rendered_from(tmp_path: Path) -> None:
    """Item 6: the catalog's own digest was trusted, so an edited entry (h200-training on
    A100, unconstrained) was rendered. Render now compares the whole catalog with a compile."""
    from taugen.engines.runs.resolution import resolve_run
    from tests.support.runs import build_lab

    project = build_lab(tmp_path)
    catalog = tmp_path / "out" / "lab" / "profile-catalog.yaml"
    text = catalog.read_text()
    assert "topologyLevel: tau.azure.com/network-domain" in text
    catalog.write_text(text.replace("topologyLevel: tau.azure.com/network-domain", "topologyLevel: null", 1))
    run = tmp_path / "run.yaml"
    from tests.support.helpers import write_yaml
    from tests.support.runs import run_doc

    write_yaml(run, run_doc("h200-training"))
    (problem,) = problems_of(lambda: resolve_run(run, project))
    assert (problem.rule, problem.path) == ("R32", catalog)
    assert "not what a build of the current inputs writes" in problem.message
