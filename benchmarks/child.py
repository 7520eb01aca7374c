"""Run one command and write its wall time and peak RSS as JSON (stdlib only; run as a script).

    python benchmarks/child.py RESULT.json COMMAND...

A fresh, small process between the benchmark and taugen: a child's ru_maxrss also counts the
memory of the process it was forked from, so measured straight from the benchmark (which holds
parsed fleets) it would report the benchmark's size, not taugen's. Forked from this wrapper,
taugen's peak is its own, and RUSAGE_CHILDREN here holds exactly one run.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    result, *command = argv
    start = time.perf_counter()
    code = subprocess.run(command, check=False).returncode  # standard streams are inherited
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux
    Path(result).write_text(json.dumps({"code": code, "seconds": seconds, "peak_bytes": peak}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
