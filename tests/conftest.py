"""Shared fixtures: a CLI runner (tests/cli) and small projects written into tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from taugen.cli import main

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"

Run = Callable[..., Result]


@pytest.fixture
def run() -> Run:
    """Invoke the taugen CLI in-process: run("build", "-c", path) -> click Result."""
    runner = CliRunner()

    def invoke(*args: str | Path) -> Result:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return invoke


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty no-op cache (taugen/write/cache.py), never the user's ~/.cache."""
    monkeypatch.setenv("TAUGEN_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
