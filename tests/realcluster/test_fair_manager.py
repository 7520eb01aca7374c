"""Issue 35 (R49): Kueue's full manager v0.19.2 runs outside a cluster with our Configuration,
fair sharing on (kueue_manager.py), and says so: it loads the Configuration with the
strategies given, and a ClusterQueue gets the fair-sharing status only that mode writes."""

from __future__ import annotations

import re

import pytest

from tests.realcluster.binaries import Binaries
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.kueue_manager import manager

pytestmark = pytest.mark.realcluster
LOADED = re.compile(r'"Configuration loaded".*')


def test_r49_the_manager_runs_with_the_fair_sharing_it_is_given(
    fair_plane: ControlPlane, binaries: Binaries, pytestconfig: pytest.Config
) -> None:
    given = {"enable": True, "preemptionStrategies": ["LessThanInitialShare"]}
    with manager(fair_plane, binaries, given, "smoke") as running:
        record(pytestconfig, f"Kueue manager (fair sharing) ready in {running.seconds:.1f} s")
        log = running.process.log.read_text(encoding="utf-8", errors="replace")
    loaded = LOADED.search(log)
    assert loaded is not None, log[-2000:]
    # v0.19.2 prints the Configuration it runs with as v1beta2: fairSharing holds the list only
    assert "fairSharing:\\n  preemptionStrategies:\\n  - LessThanInitialShare\\n" in loaded.group(0)
    assert not running.process.alive()
