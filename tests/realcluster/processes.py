"""The programs the fixture starts: each in a process group of its own (`start_new_session`),
its output in a log file that outlives it. Stopping one touches only that group: SIGTERM, a
wait, then SIGKILL (issue 31)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

STOP_SECONDS = 10.0
TAIL_LINES = 40
NOISE = "grpc: addrConn.createTransport failed to connect"


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def tail(self, lines: int = TAIL_LINES) -> str:
        """The log's last lines, without kube-apiserver's gRPC reconnect chatter (it closes an
        etcd client per CRD storage it replaces: warnings that say nothing about a failure)."""
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        kept = [line for line in text.splitlines() if NOISE not in line]
        state = "running" if self.alive() else f"exited with {self.popen.returncode}"
        body = "\n".join(kept[-lines:])
        return f"{self.name} (pid {self.pid}, {state}), last lines of {self.log}:\n{body}"

    def stop(self) -> None:
        """SIGTERM to this process's own group, then SIGKILL if it outlives STOP_SECONDS."""
        if self.alive():
            _signal_group(self.pid, signal.SIGTERM)
            try:
                self.popen.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                _signal_group(self.pid, signal.SIGKILL)
                self.popen.wait(STOP_SECONDS)


def start(name: str, command: list[str], log: Path, env: dict[str, str] | None = None) -> Process:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        popen = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: pgid == pid
            env=env,
        )
    return Process(name, popen, log)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    """Only while the leader is not yet reaped (so its id cannot name another group)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)
