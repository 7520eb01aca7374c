"""Crash safety (issue 7): a build killed at any moment leaves the old tree or the new one.

CI kills at every named point of taugen/write/journal.py and at a few delays. The long run:

    TAUGEN_CRASH_KILLS=200 TAUGEN_CRASH_NODES=500 .venv/bin/pytest tests/crash -q

kills at 200 moments: 100 spread over the build, 100 over its writing (docs/security.md).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.crash.harness import NAMED_POINTS, Fixture, delays, prepare, trial

KILLS = int(os.environ.get("TAUGEN_CRASH_KILLS", "2"))
NODES = int(os.environ.get("TAUGEN_CRASH_NODES", "100"))


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> Fixture:
    return prepare(tmp_path_factory.mktemp("crash"), NODES)


@pytest.mark.parametrize("point", NAMED_POINTS)
def test_killed_at_a_named_point(fixture: Fixture, point: str) -> None:
    """Before the commit the old tree stays; after it, the next run rolls the journal forward
    (a kill between the two clusters' renames included)."""
    expected = "old" if point == "staged" else "new"
    assert trial(fixture, point=point) == expected


def test_killed_after_delays(fixture: Fixture) -> None:
    outcomes: Counter[str] = Counter()
    for number, (delay, writing) in enumerate(delays(fixture, KILLS), 1):
        outcomes[trial(fixture, delay=delay, writing=writing)] += 1
        since = "the staging folder appeared" if writing else "the start"
        print(f"kill {number}/{KILLS} {delay:.3f} s after {since}: {dict(outcomes)}", flush=True)
    assert sum(outcomes.values()) == KILLS
