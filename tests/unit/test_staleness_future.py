"""R31, issue 17 item 7: an inventory observed in the future is refused, --allow-stale or not."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from taugen.lock.staleness import CLOCK_SKEW
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import NOW, problems_of, run_build, write_lock, write_project

OBSERVED = NOW.replace(hour=12)  # the inventory helpers' observedAt, 2026-11-28T12:00:00Z


def test_the_clock_skew_allowance_is_one_hour() -> None:
    assert timedelta(hours=1) == CLOCK_SKEW


def test_an_observed_at_within_the_skew_builds(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    assert run_build(project, now=OBSERVED - CLOCK_SKEW).written == ("c1", "taugen.lock")


@pytest.mark.parametrize("allow_stale", [False, True], ids=["plain", "allow-stale"])
def test_an_observed_at_beyond_the_skew_is_refused(tmp_path: Path, allow_stale: bool) -> None:
    project = write_project(tmp_path)
    now = OBSERVED - CLOCK_SKEW - timedelta(seconds=1)
    problems = problems_of(lambda: run_build(project, now=now, allow_stale=allow_stale))
    assert [(p.path.name, p.line, p.col, p.rule, p.message, p.hint) for p in problems] == [
        (
            "inventory.yaml",
            5,
            13,
            "R31",
            "inventory observedAt 2026-11-28T12:00:00Z is in the future: more than 1h after now "
            "(2026-11-28T10:59:59Z)",
            "observedAt is when the nodes were read: fix the exporter's clock or the timestamp",
        )
    ]
    assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()


def test_a_year_2999_inventory_does_not_reach_the_lock(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    run_build(project)
    lock = (tmp_path / "taugen.lock").read_bytes()
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")], "2999-01-01T00:00:00Z"))
    assert [p.rule for p in problems_of(lambda: run_build(project))] == ["R31"]
    assert (tmp_path / "taugen.lock").read_bytes() == lock


def test_a_lock_observed_in_the_future_is_named_not_blamed_on_the_inventory(tmp_path: Path) -> None:
    """Issue 17 item 7: a hand-edited lock from year 2999 made every real inventory "older
    than the lock"; it is reported at the lock, and --allow-stale replaces it."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    write_lock(tmp_path, {"h200-141gb": 8}, observed_at="2999-01-01T00:00:00Z")
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path.name) == ("R31", "taugen.lock")
    assert problem.message == (
        "taugen.lock's observedAt 2999-01-01T00:00:00Z for cluster c1 is in the future: "
        "no real inventory could be newer"
    )
    run_build(project, allow_stale=True)
    assert '"observedAt": "2026-11-28T12:00:00Z"' in (tmp_path / "taugen.lock").read_text()
