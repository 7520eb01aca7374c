"""Two builds of one project at the same time: the second waits, and the result is one build's."""

from __future__ import annotations

import threading
from pathlib import Path

from taugen.commands.build import BuildOptions, BuildResult, build
from taugen.write.exclusive import exclusive
from tests.support.helpers import gpu_node, inventory, snapshot, write_project


def test_a_build_waits_while_another_holds_the_project(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    results: list[BuildResult] = []
    with exclusive(tmp_path):  # stands for a build that is still running
        worker = threading.Thread(target=lambda: results.append(build(BuildOptions(project))))
        worker.start()
        worker.join(timeout=1.0)
        assert worker.is_alive(), "the second build did not wait"
        assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()
    worker.join(timeout=60)
    assert not worker.is_alive()
    assert [r.written for r in results] == [("c1", "taugen.lock")]


def test_concurrent_builds_end_as_one_build(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node(f"h200-{i}") for i in range(20)]))
    results: list[BuildResult] = []
    workers = [
        threading.Thread(target=lambda: results.append(build(BuildOptions(project)))) for _ in range(3)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    # exactly one of them wrote; the others found the tree current and rewrote nothing
    assert sorted(len(r.written) for r in results) == [0, 0, 2]
    after = snapshot(tmp_path)
    assert build(BuildOptions(project)).written == ()
    assert snapshot(tmp_path) == after
    assert not list(tmp_path.glob(".*taugen*")), "a temporary file was left behind"


def test_a_build_waits_for_another_project_writing_the_same_output_root(tmp_path: Path) -> None:
    """Issue 17 item 7: the lock on the project folder alone let two projects sharing an
    output root interleave; a build also holds the folder it stages in."""
    project = write_project(tmp_path / "a", inventory([gpu_node("h200-0")]))
    (tmp_path / "shared").mkdir()
    results: list[BuildResult] = []
    out = tmp_path / "shared" / "out"  # `output:` stays in the project (issue 32); --out need not
    with exclusive(tmp_path / "shared"):  # another project's build, staging beside shared/out
        worker = threading.Thread(target=lambda: results.append(build(BuildOptions(project, out=out))))
        worker.start()
        worker.join(timeout=1.0)
        assert worker.is_alive(), "the build did not wait for the output root's folder"
    worker.join(timeout=60)
    assert [r.written for r in results] == [("c1",)]


def test_validate_waits_for_a_running_build(tmp_path: Path) -> None:
    """Issue 17 item 9: validate saw a torn tree during a build; it holds a shared lock."""
    from taugen.commands.validate import ValidateOptions, validate_paths

    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    build(BuildOptions(project))
    done: list[object] = []
    with exclusive(tmp_path):  # a build that is still running
        worker = threading.Thread(
            target=lambda: done.append(validate_paths(ValidateOptions(project_file=project)))
        )
        worker.start()
        worker.join(timeout=1.0)
        assert worker.is_alive(), "validate did not wait for the build"
    worker.join(timeout=60)
    assert len(done) == 1


def test_two_projects_cannot_share_an_output_root(tmp_path: Path) -> None:
    """Each would deploy, and the other remove, the other's folders: the second is refused."""
    import pytest

    from taugen.core.errors import InputError

    shared = tmp_path / "shared"  # --out: `output:` stays in the project (issue 32)
    build(BuildOptions(write_project(tmp_path / "a", inventory([gpu_node("h200-0")])), out=shared))
    b = write_project(tmp_path / "b", inventory([gpu_node("h200-1")]))
    b.write_text(b.read_text().replace("name: c1", "name: c2"))
    with pytest.raises(InputError) as info:
        build(BuildOptions(b, out=shared))
    (problem,) = info.value.problems
    assert "shared/c1: not the folder of a cluster of this project" in problem.message
