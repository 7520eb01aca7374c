"""Issue 31's benchmark: the real control plane's figures, measured by the `realcluster` suite.

    python -m benchmarks.realcluster                 # one run
    python -m benchmarks.realcluster --repeat 3      # three runs, each figure per run

Runs `pytest -m realcluster` (after `tools/realcluster/build`, which prints "cached" when the
programs are built) on the tests that measure: the fixture's start time (each phase), the apply
times of every tree (the 1,000-node fleet's among them: render, dry run, apply, second apply),
and the differential figures (validate vs the API server; simulate vs Kueue: the example sets,
the generated scenarios and the TAS vectors). Prints the `realcluster:` lines each test
records. No timing is asserted anywhere: this only measures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = ("tests/realcluster/test_trees.py", "tests/realcluster/test_validate_vs_server.py")
OPTIONAL = (  # the simulate differentials, when present: generated and example sets, the TAS vectors
    "tests/realcluster/test_simulate_vs_kueue.py",
    "tests/realcluster/test_simulate_vs_kueue_vectors.py",
)


def figures(run: int) -> list[str]:
    tests = [*TESTS, *(t for t in OPTIONAL if (REPO / t).is_file())]
    command = [sys.executable, "-m", "pytest", "-m", "realcluster", "-p", "no:cacheprovider", "-q", *tests]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("realcluster: ")]
    if done.returncode != 0:
        lines.append(f"realcluster: run {run}: pytest exited {done.returncode} (figures above are partial)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    built = subprocess.run([str(REPO / "tools" / "realcluster" / "build")], check=False)
    if built.returncode != 0:
        return built.returncode
    for run in range(1, args.repeat + 1):
        print(f"== run {run} of {args.repeat}")
        for line in figures(run):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
