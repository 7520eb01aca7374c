"""The `realcluster` suite's fixtures (issue 31): the real programs, one control plane per
session, and the logs' last lines on every failing test. Selected with `pytest -m realcluster`;
the default run deselects it (pyproject's addopts). Without the programs it skips with one line,
or fails when TAUGEN_REQUIRE_REALCLUSTER=1 (CI, after tools/realcluster/build)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.realcluster.binaries import REQUIRE, Binaries, find_binaries, missing_manager
from tests.realcluster.controlplane import ControlPlane, start_control_plane
from tests.realcluster.crds import crd_files

PLANE = pytest.StashKey[ControlPlane]()
FAIR_PLANE = pytest.StashKey[ControlPlane]()
TIMES = pytest.StashKey[list[str]]()


@pytest.fixture(scope="session")
def binaries() -> Binaries:
    found = find_binaries()
    if isinstance(found, str):
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{found} ({REQUIRE}=1)", pytrace=False)
        pytest.skip(found)
    return found


@pytest.fixture(scope="session")
def control_plane(
    binaries: Binaries, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[ControlPlane]:
    plane = start_control_plane(
        binaries, tmp_path_factory.mktemp("realcluster"), crd_files(binaries.kueue_crds)
    )
    pytestconfig.stash[PLANE] = plane
    phases = ", ".join(f"{name} {s:.1f} s" for name, s in plane.seconds.items())
    record(
        pytestconfig,
        f"control plane up in {sum(plane.seconds.values()):.1f} s ({phases}); logs in {plane.folder}",
    )
    yield plane
    del pytestconfig.stash[PLANE]
    plane.stop()


@pytest.fixture(scope="session")
def fair_plane(
    binaries: Binaries, tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[ControlPlane]:
    """A control plane of its own without minimalkueue, for Kueue's full manager with fair
    sharing (issue 35; kueue_manager.py starts it per preemptionStrategies list)."""
    found = missing_manager(binaries)
    if found is not None:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{found} ({REQUIRE}=1)", pytrace=False)
        pytest.skip(found)
    folder = tmp_path_factory.mktemp("realcluster-fair")
    plane = start_control_plane(binaries, folder, crd_files(binaries.kueue_crds), kueue=None)
    phases = ", ".join(f"{name} {s:.1f} s" for name, s in plane.seconds.items())
    record(pytestconfig, f"fair-sharing control plane up in {sum(plane.seconds.values()):.1f} s ({phases})")
    pytestconfig.stash[FAIR_PLANE] = plane
    yield plane
    del pytestconfig.stash[FAIR_PLANE]
    plane.stop()


def record(config: pytest.Config, line: str) -> None:
    """A measurement, printed in the run's summary."""
    config.stash.setdefault(TIMES, []).append(line)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    for key, which in ((PLANE, "the control plane"), (FAIR_PLANE, "the fair-sharing control plane")):
        plane = item.config.stash.get(key, None)
        if report.failed and plane is not None:
            report.sections.append((f"realcluster: {which}'s logs", plane.tails()))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    for line in config.stash.get(TIMES, []):
        terminalreporter.write_line(f"realcluster: {line}")
