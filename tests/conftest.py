"""Shared fixtures: a CLI runner (tests/cli) and small projects written into tmp_path."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import taugen.schedulers.registry  # noqa: F401  completes Project (taugen/models/entries.py)
from taugen.cli import main

# cel-python raises the recursion limit to 2500 each time it makes an environment (validate's
# CEL rules, in every build). Raised once here, before any test, so a hypothesis test that first
# builds does not see the limit change under it (HypothesisWarning when run on its own).
sys.setrecursionlimit(max(sys.getrecursionlimit(), 2500))

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
# The upstream CRDs the tests read: ../shared/crds/<project>/, or a folder laid out the same way
# (docs/development.md: a new upstream release is tested this way, nothing is copied in).
UPSTREAM_CRDS = Path(os.environ.get("TAUGEN_UPSTREAM_CRDS") or SHARED / "crds")

Run = Callable[..., Result]


def shared_crds(project: str) -> Path:
    """../shared/crds/<project>: the upstream CRDs, read where they are and never copied into
    the repository (issue 30); the test skips without them (and fails on CI, below)."""
    folder = UPSTREAM_CRDS / project
    if not folder.is_dir():
        pytest.skip(f"upstream CRDs not found at {folder} (only the full workspace has ../shared)")
    return folder


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Issue 18: on CI (`CI` set) a test that needs ../shared fails when it is missing, rather
    than skipping: a green CI run must have run the upstream-CRD and vector checks. A user's
    clone has no ../shared, and there those tests skip."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and _needs_shared(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"CI is set, and this test needs {SHARED}: {report.longrepr}"


def _needs_shared(longrepr: object) -> bool:
    text = str(longrepr)
    return str(SHARED) in text or "../shared" in text


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """The same for a module that skips itself (`pytest.skip(..., allow_module_level=True)`)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and _needs_shared(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"CI is set, and this module needs {SHARED}: {report.longrepr}"
