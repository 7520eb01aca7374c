"""core/gcpause.py (issue 36): what a pause built and still holds is aged to the oldest
generation, so the collector's next passes do not walk it; nothing is made immortal."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from taugen.commands.report.command import ReportOptions, report_html
from taugen.core.gcpause import paused_gc
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project


class Cell:
    def __init__(self) -> None:
        self.other: Cell | None = None


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.enable()
    yield
    if not enabled:
        gc.disable()


def test_what_the_pause_built_is_in_the_oldest_generation_after_it() -> None:
    with paused_gc():
        assert not gc.isenabled()
        held = [Cell() for _ in range(20_000)]
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(cell) in oldest for cell in held)
    assert gc.get_count()[0] < 700  # the young count starts again: no pass is owed
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert not any(id(cell) in young for cell in held)


def test_a_cycle_built_in_the_pause_is_still_collected() -> None:
    with paused_gc():
        a, b = Cell(), Cell()
        a.other, b.other = b, a
        alive = weakref.ref(a)
    del a, b
    assert alive() is not None  # a cycle: reference counting alone does not free it
    gc.collect()
    assert alive() is None
    assert gc.get_freeze_count() == 0


def test_objects_frozen_before_the_pause_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused_gc():
            held = [Cell() for _ in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled() and len(held) == 1_000
    finally:
        gc.unfreeze()


def test_a_pause_inside_a_pause_leaves_the_collector_off() -> None:
    with paused_gc():
        with paused_gc():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_build_and_report_load_and_compile_with_the_collector_paused(tmp_path: Path) -> None:
    """Each stage they name runs paused (`report` ran its load and diff with the collector on),
    and the collector is on again once they return."""
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    stages: list[tuple[str, bool]] = []

    def stage(name: str) -> None:
        stages.append((name, gc.isenabled()))

    run_build(project, progress=stage)
    report_html(ReportOptions(project, out=tmp_path / "r.html", cwd=tmp_path, progress=stage))
    assert len(stages) == 8 and not any(enabled for _, enabled in stages)
    assert gc.isenabled()
