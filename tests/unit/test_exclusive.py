"""Two builds of one project at the same time: the second waits, and the result is one build's."""

from __future__ import annotations

import threading
from pathlib import Path

from taugen.build import BuildOptions, BuildResult, build
from taugen.exclusive import exclusive
from tests.helpers import gpu_node, inventory, snapshot, write_project


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
