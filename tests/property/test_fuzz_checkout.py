"""Adversarial checkouts (issue 17): a pull request writes the staging folder, the lock and out/.

For any staging folder (journal and entries drawn from names that are cluster names, paths,
links and junk) and any lock (valid and near-valid JSON, hostile keys and huge numbers), a
build never prints a traceback, never touches anything outside the project's own folder,
and either refuses with exit 2 or leaves the tree a build of the inputs writes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from taugen.cli import main
from taugen.write.journal import JOURNAL, lock_temporary, staging_dir
from tests.support.helpers import gpu_node, inventory, snapshot, write_project

NAMES = st.sampled_from(
    ["c1", "c2", "../victim", "/tmp", "victim", "c1.old", "", ".", "..", "c1\n", "C1", "a" * 300, "\x00"]
)
JOURNALS = st.one_of(
    st.fixed_dictionaries(
        {"swap": st.lists(NAMES, max_size=3), "drop": st.lists(NAMES, max_size=3), "lock": st.booleans()}
    ),
    st.dictionaries(
        st.sampled_from(["swap", "drop", "lock", "plan", "hook"]), st.one_of(NAMES, st.lists(NAMES))
    ),
    st.sampled_from(["null", "[]", "{", '"x"', "1e999"]),
)
ENTRY_KINDS = st.sampled_from(["folder", "file", "link-to-victim", "link-to-nowhere"])
QUOTA = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=5), st.none())
LOCK_KEYS = st.one_of(NAMES, st.sampled_from(["c1"]))


def _project(box: Path) -> Path:
    project = write_project(box / "repo", inventory([gpu_node("h-0")]))
    assert CliRunner().invoke(main, ["build", "-c", str(project)]).exit_code == 0
    victim = box / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep\n")
    return project


def _entry(staging: Path, name: str, kind: str, box: Path) -> None:
    if not name or "/" in name or "\x00" in name or name in (".", "..") or len(name) > 200:
        return  # not a name a folder entry can have
    path = staging / name
    if path.exists() or path.is_symlink():
        return
    if kind == "folder":
        path.mkdir()
        (path / "clusterqueue.yaml").write_text("kind: Secret\n")
    elif kind == "file":
        path.write_text("junk\n")
    else:
        path.symlink_to(box / "victim" if kind == "link-to-victim" else box / "nowhere")


def _outcome(box: Path, project: Path) -> None:
    outside = snapshot(box / "victim")
    result = CliRunner().invoke(main, ["build", "-c", str(project)])
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    assert snapshot(box / "victim") == outside
    assert sorted(p.name for p in box.iterdir()) == ["repo", "victim"]
    if result.exit_code == 0:
        check = CliRunner().invoke(main, ["build", "--check", "-c", str(project)])
        assert check.exit_code == 0, check.output
        assert not staging_dir(project.parent / "out").exists()


@given(journal=JOURNALS, entries=st.lists(st.tuples(NAMES, ENTRY_KINDS), max_size=4), temp=st.booleans())
def test_any_staging_folder_is_finished_refused_or_harmless(
    journal: Any, entries: list[tuple[str, str]], temp: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        box = Path(folder)
        project = _project(box)
        staging = staging_dir(project.parent / "out")
        staging.mkdir()
        text = journal if isinstance(journal, str) else json.dumps(journal)
        (staging / JOURNAL).write_text(text)
        for name, kind in entries:
            _entry(staging, name, kind, box)
        if temp:
            lock_temporary(project.parent / "taugen.lock").symlink_to(box / "victim" / "precious.txt")
        _outcome(box, project)
        shutil.rmtree(box / "repo", ignore_errors=True)


@given(keys=st.lists(LOCK_KEYS, min_size=1, max_size=3), marks=st.dictionaries(NAMES, QUOTA, max_size=3))
def test_any_lock_is_read_or_refused_never_obeyed_outside(keys: list[str], marks: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        box = Path(folder)
        project = _project(box)
        entry = {"observedAt": "2026-11-28T12:00:00Z", "inputsDigest": "sha256:x", "gpuQuota": marks}
        lock = {
            "apiVersion": "taugen.tau.azure.com/v1alpha1",
            "kind": "Lock",
            "clusters": {k: entry for k in keys},
        }
        (project.parent / "taugen.lock").write_text(json.dumps(lock))
        _outcome(box, project)
