"""The fixture's process handling without the real programs (runs in the default suite): a
process gets its own group, SIGTERM stops it, one that ignores SIGTERM is killed, and its log's
last lines are kept after it is gone."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.realcluster import processes
from tests.realcluster.processes import start


def test_a_process_runs_in_its_own_group_and_stops_on_sigterm(tmp_path: Path) -> None:
    process = start("sleeper", ["bash", "-c", "echo up; exec sleep 30"], tmp_path / "sleeper.log")
    _wait_for_log(process.log, "up")
    assert os.getpgid(process.pid) == process.pid != os.getpgid(0)
    process.stop()
    assert process.popen.returncode == -15  # SIGTERM
    assert process.tail().endswith("last lines of " + str(process.log) + ":\nup")
    assert "exited with -15" in process.tail()


def test_a_process_that_ignores_sigterm_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "STOP_SECONDS", 0.5)
    process = start(
        "stubborn", ["bash", "-c", "trap '' TERM; echo up; while :; do sleep 0.1; done"], tmp_path / "s.log"
    )
    _wait_for_log(process.log, "up")
    began = time.monotonic()
    process.stop()
    assert process.popen.returncode == -9 and time.monotonic() - began < 5


def _wait_for_log(log: Path, text: str) -> None:
    deadline = time.monotonic() + 10
    while text not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, f"{log} never said {text!r}"
        time.sleep(0.05)
