"""Run the installed taugen CLI as a user does, one fresh process per run: wall time and peak RSS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CHILD = Path(__file__).with_name("child.py")
Snapshot = dict[str, tuple[int, int]]  # path -> (inode, mtime_ns)
# An installed taugen runs from cached bytecode (pip compiles a wheel's modules as it installs);
# with PYTHONDONTWRITEBYTECODE set, as on this machine, every run would compile every module's
# source again, a fixed cost (~0.1 s) users never pay. The runs drop it so the cache is kept.
UNCACHED = "PYTHONDONTWRITEBYTECODE"


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    seconds: float
    peak_bytes: int  # ru_maxrss of this one taugen process
    code: int
    stdout: str
    stderr: str


class RunFailed(RuntimeError):
    def __init__(self, run: Run, expected: int) -> None:
        super().__init__(
            f"taugen {' '.join(run.args)} exited {run.code}, expected {expected}\n{run.stdout}{run.stderr}"
        )


def taugen(*args: str, cwd: Path, expect: int | None = 0, env: dict[str, str] | None = None) -> Run:
    """`python -m taugen ARGS` in `cwd` (with `env` added to the environment), timed from spawn
    to exit (interpreter start and imports included), through the small wrapper child.py that
    measures its peak memory."""
    with tempfile.TemporaryDirectory(prefix="taugen-run-") as scratch:
        folder = Path(scratch)
        result = folder / "result.json"
        with (folder / "stdout").open("wb") as out, (folder / "stderr").open("wb") as err:
            command = [sys.executable, "-I", str(CHILD), str(result), sys.executable, "-m", "taugen", *args]
            environment = {key: value for key, value in os.environ.items() if key != UNCACHED}
            environment.update(env or {})
            subprocess.run(command, cwd=cwd, stdout=out, stderr=err, check=True, env=environment)
        measured = json.loads(result.read_text())
        run = Run(
            args,
            measured["seconds"],
            measured["peak_bytes"],
            measured["code"],
            (folder / "stdout").read_text(errors="replace"),
            (folder / "stderr").read_text(errors="replace"),
        )
    if expect is not None and run.code != expect:
        raise RunFailed(run, expect)
    return run


def snapshot(*paths: Path) -> Snapshot:
    """Inode and mtime of every file under `paths` (files or folders)."""
    found: Snapshot = {}
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            stat = file.stat()
            found[str(file)] = (stat.st_ino, stat.st_mtime_ns)
    return found


def rewritten(before: Snapshot, after: Snapshot) -> list[str]:
    """Files added, removed or rewritten (a new inode or mtime) between two snapshots."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
