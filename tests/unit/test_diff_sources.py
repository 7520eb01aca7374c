"""Trees from disk and from Git revisions, and bad input (exit 2) with a message and a hint.

Git revisions are read with `git ls-tree` and `git cat-file`: the working tree, its mtimes and
the index must be exactly as they were after a diff."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taugen.commands.diff.render import prefixed
from taugen.core.errors import InputError
from taugen.engines.changes.engine import DiffOptions, diff
from tests.support.helpers import snapshot

CASES = Path(__file__).resolve().parents[1] / "cases" / "diff"
QUOTA = CASES / "quota-increase"
BUMP = "ClusterQueue taugrid: flavor taugrid-h200-141gb nvidia.com/gpu 16 → 24"


def git(repo: Path, *args: str) -> str:
    config = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", *config, *args], cwd=repo, check=True, capture_output=True, text=True)
    return done.stdout


def working_tree(repo: Path) -> dict[str, tuple[bytes, int]]:
    return {k: v for k, v in snapshot(repo).items() if not k.startswith(".git/")}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose commit holds the base tree under out/c1, and whose working tree
    holds the head tree (uncommitted), plus an untracked file."""
    root = tmp_path / "repo"
    shutil.copytree(QUOTA / "base", root / "out" / "c1")
    (root / "out" / "c1" / "kustomization.yaml").write_text("resources: [clusterqueue.yaml]\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "base")
    shutil.copy(QUOTA / "head" / "clusterqueue.yaml", root / "out" / "c1" / "clusterqueue.yaml")
    (root / "notes.txt").write_text("untracked\n")
    return root


def headlines(options: DiffOptions) -> list[str]:
    return [prefixed(e) for e in diff(options).entries]


def test_a_revision_is_read_without_touching_the_working_tree(repo: Path) -> None:
    status = git(repo, "status", "--porcelain")  # before the snapshots: status refreshes the index
    before, index = working_tree(repo), repo / ".git" / "index"
    index_before = (index.read_bytes(), index.stat().st_mtime_ns)
    result = diff(DiffOptions("git:HEAD", cwd=repo))
    assert [prefixed(e) for e in result.entries] == [f"c1: {BUMP}"]
    assert (result.base, result.head) == ("git:HEAD:out", "out")
    assert working_tree(repo) == before
    assert (index.read_bytes(), index.stat().st_mtime_ns) == index_before
    assert git(repo, "status", "--porcelain") == status == " M out/c1/clusterqueue.yaml\n?? notes.txt\n"


def test_two_revisions(repo: Path) -> None:
    git(repo, "commit", "-q", "-am", "head")
    before = working_tree(repo)
    assert headlines(DiffOptions("git:HEAD~1", "git:HEAD", cwd=repo)) == [f"c1: {BUMP}"]
    assert headlines(DiffOptions("git:HEAD", "git:HEAD~1", cwd=repo)) == [
        "c1: ClusterQueue taugrid: flavor taugrid-h200-141gb nvidia.com/gpu 24 → 16"
    ]
    assert working_tree(repo) == before


def test_a_path_in_a_revision_and_a_subfolder_as_the_current_folder(repo: Path) -> None:
    assert headlines(DiffOptions("git:HEAD:out/c1", "out/c1", cwd=repo)) == [BUMP]
    assert headlines(DiffOptions("git:HEAD:c1", cwd=repo / "out", project_file=Path("none.yaml"))) == [BUMP]
    one_file = "out/c1/clusterqueue.yaml"
    assert headlines(DiffOptions(f"git:HEAD:{one_file}", one_file, cwd=repo)) == [BUMP]


def test_the_default_path_is_the_projects_output_root(repo: Path) -> None:
    (repo / "taugen.yaml").write_text(
        "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\noutput: out/c1\n"
        "clusters: [{name: c1, inventory: inventory.yaml, tenants: [{namespace: team-llm}]}]\n"
    )
    result = diff(DiffOptions("git:HEAD", cwd=repo))
    assert (result.base, result.head) == ("git:HEAD:out/c1", "out/c1")
    assert [prefixed(e) for e in result.entries] == [BUMP]


def test_the_working_tree_against_itself_is_no_change(repo: Path) -> None:
    git(repo, "commit", "-q", "-am", "head")
    assert headlines(DiffOptions("git:HEAD", cwd=repo)) == []


@pytest.mark.parametrize(
    ("base", "message"),
    [
        ("git:no-such-branch", "unknown revision 'no-such-branch'"),
        ("git:HEAD:nowhere", "nowhere is not in HEAD"),
        ("git:", "not a Git revision"),
        ("git:--output=x", "not a Git revision"),
        ("missing-folder", "no such file or folder"),
    ],
)
def test_bad_sources_are_input_errors(repo: Path, base: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        diff(DiffOptions(base, "out", cwd=repo))
    assert [p.message for p in err.value.problems] == [message]
    assert all(p.hint for p in err.value.problems)


def test_a_revision_outside_a_repository(tmp_path: Path) -> None:
    shutil.copytree(QUOTA / "base", tmp_path / "out")
    with pytest.raises(InputError) as err:
        diff(DiffOptions("git:HEAD", cwd=tmp_path))
    assert "not a git repository" in err.value.problems[0].message.lower()


def test_problems_of_both_sides_are_reported_together(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        diff(DiffOptions("old", "new", cwd=tmp_path))
    assert [p.path.name for p in err.value.problems] == ["new", "old"]


def test_unreadable_yaml_names_file_line_and_column(tmp_path: Path) -> None:
    shutil.copytree(QUOTA / "base", tmp_path / "base")
    (tmp_path / "head").mkdir()
    (tmp_path / "head" / "clusterqueue.yaml").write_text("kind: ClusterQueue\nmetadata: {name: [\n")
    (tmp_path / "head" / "notes.yaml").write_text("just: a map\n---\n- a list\n")
    with pytest.raises(InputError) as err:
        diff(DiffOptions("base", "head", cwd=tmp_path))
    shown = [p.render(tmp_path) for p in err.value.problems]
    assert shown[0].startswith("head/clusterqueue.yaml:2:19: error: ")  # the line the stream ended in
    assert shown[1] == (
        "head/notes.yaml: error: document 1 is not a Kubernetes object [diff-source]\n  hint: fix the file"
    )
    assert shown[2].startswith("head/notes.yaml: error: document 2 is not a Kubernetes object")


def test_an_object_defined_twice_is_bad_input(tmp_path: Path) -> None:
    shutil.copytree(QUOTA / "base", tmp_path / "base")
    shutil.copytree(QUOTA / "base", tmp_path / "head")
    shutil.copy(QUOTA / "head" / "clusterqueue.yaml", tmp_path / "head" / "copy.yaml")
    with pytest.raises(InputError) as err:
        diff(DiffOptions("base", "head", cwd=tmp_path))
    assert [p.message for p in err.value.problems] == [
        "ClusterQueue taugrid is defined twice (also in clusterqueue.yaml)"
    ]


def test_the_same_unreadable_file_on_both_sides_is_reported_for_both(tmp_path: Path) -> None:
    for side in ("base", "head"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "bad.yaml").write_text("a: [\n")
    with pytest.raises(InputError) as err:
        diff(DiffOptions("base", "head", cwd=tmp_path))
    assert [p.render(tmp_path).split(": error")[0] for p in err.value.problems] == [
        "base/bad.yaml:1:5",
        "head/bad.yaml:1:5",
    ]


def test_a_link_in_the_working_tree_is_refused_not_followed(repo: Path, tmp_path: Path) -> None:
    """Issue 32: the working-tree side followed a link out of the tree, putting another file's
    objects (a kubeconfig, a cluster's static manifests) into the pull request's comment."""
    secret = tmp_path / "elsewhere.yaml"
    secret.write_text("apiVersion: v1\nkind: Secret\nmetadata: {name: stolen}\ndata: {token: aHVudGVyMg==}\n")
    (repo / "out" / "c1" / "stolen.yaml").symlink_to(secret)
    (repo / "out" / "c1" / "folder").symlink_to(tmp_path)
    with pytest.raises(InputError) as info:
        diff(DiffOptions("git:HEAD", cwd=repo))
    assert sorted((p.path, p.message) for p in info.value.problems) == [
        (repo / "out" / "c1" / "folder", f"is a symbolic link (to {tmp_path}): diff follows none"),
        (repo / "out" / "c1" / "stolen.yaml", f"is a symbolic link (to {secret}): diff follows none"),
    ]


def test_a_linked_output_root_is_refused(repo: Path, tmp_path: Path) -> None:
    (repo / "taugen.yaml").write_text(
        "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\noutput: out\n"
        "clusters: [{name: c1, inventory: i.yaml, tenants: [{namespace: t}]}]\n"
    )
    shutil.move(repo / "out", tmp_path / "real-out")
    (repo / "out").symlink_to(tmp_path / "real-out")
    with pytest.raises(InputError) as info:
        diff(DiffOptions("git:HEAD", cwd=repo))
    (problem,) = info.value.problems
    assert (
        problem.message
        == f"output root {repo / 'out'} is a symbolic link (to {tmp_path / 'real-out'}): diff follows none"
    )


@pytest.mark.parametrize("side", ["disk", "git"])
def test_a_file_past_the_size_limit_is_refused_before_it_is_read(
    repo: Path, side: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taugen.load import limits

    big = repo / "out" / "c1" / "big.yaml"
    big.write_text("# " + "x" * 5000 + "\n")
    if side == "git":
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "big")
    monkeypatch.setattr(limits, "MAX_BYTES", 4096)
    with pytest.raises(InputError) as info:
        diff(DiffOptions("git:HEAD", "git:HEAD" if side == "git" else "out", cwd=repo))
    paths = {p.path for p in info.value.problems}
    assert paths == ({Path("git:HEAD:out/c1/big.yaml")} if side == "git" else {big})
    assert {p.message for p in info.value.problems} == {
        "the file is 5,003 bytes; the limit is 4,096 bytes (160 MiB)"
    }
