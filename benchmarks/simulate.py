"""Issue 10's benchmark: `taugen simulate` of 1,000 runs on the 10k-node benchmark fleet.

    python -m benchmarks.simulate                       # 10k nodes, 1,000 runs, median of 3
    python -m benchmarks.simulate --nodes 1000 --runs 200 --repeat 5

Builds the generated fleet (benchmarks/generate.py, native form) once, writes a seeded
WorkloadSet, then times, in this process, the whole command core (load, resolve, read the tree,
simulate) and the simulation alone (admission + TAS placement), and prints their medians.
No timing is asserted anywhere: this only measures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from benchmarks.generate import generate
from taugen.commands.build import BuildOptions, build
from taugen.engines.admission.engine import simulate
from taugen.engines.admission.project import SimulateOptions, run_simulation

# built-in profiles and what one worker of each asks for
SHAPES: list[tuple[str, dict[str, Any], int, str]] = [
    ("h200-training", {"nvidia.com/gpu": 8, "cpu": "90", "memory": "1600Gi"}, 16, "torchrun"),
    ("h200-training-priority", {"nvidia.com/gpu": 8, "cpu": "90", "memory": "1600Gi"}, 8, "torchrun"),
    ("gb200-nvl72", {"nvidia.com/gpu": 4, "cpu": "120", "memory": "800Gi"}, 18, "torchrun"),
    ("h100-multi-node", {"nvidia.com/gpu": 8, "cpu": "90", "memory": "1600Gi"}, 32, "torchrun"),
    ("h100-any", {"nvidia.com/gpu": 2, "cpu": "16", "memory": "200Gi"}, 4, "none"),
    ("a100-single-node", {"nvidia.com/gpu": 4, "cpu": "40", "memory": "400Gi"}, 1, "none"),
    ("cpu-batch", {"cpu": "4", "memory": "16Gi"}, 8, "none"),
]


def workloads(runs: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    docs = []
    for i in range(runs):
        profile, resources, most, launcher = SHAPES[i % len(SHAPES)]
        workers = rng.randint(1, most)
        docs.append(
            {
                "metadata": {"name": f"run-{i:04d}", "namespace": rng.choice(["team-llm", "team-vision"])},
                "createdAt": f"2026-11-29T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z",
                "profile": profile,
                "workers": workers,
                "resources": resources,
                "launcher": launcher if workers > 1 else "none",
            }
        )
    return {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet", "runs": docs}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="taugen-simulate-bench-") as folder:
        project = generate(Path(folder), args.nodes, forms=["native"])["native"].project
        build(BuildOptions(project_file=project))
        sets = project.parent / "workloads.yaml"
        sets.write_text(yaml.safe_dump(workloads(args.runs, args.seed), sort_keys=False))
        whole: list[tuple[float, float]] = []
        core: list[tuple[float, float]] = []
        sim = None
        for _ in range(args.repeat):
            clock = _clock()
            sim = run_simulation(SimulateOptions(sets, project))
            whole.append(_since(clock))
            clock = _clock()
            simulate(sim.source)
            core.append(_since(clock))
    assert sim is not None
    admitted = sum(r.status == "admitted" for r in sim.result.runs)
    print(f"simulate: {args.runs} runs on {args.nodes} nodes ({admitted} admitted), {args.repeat} repeats")
    print(f"  command core (load, resolve, read tree, simulate): {_medians(whole)}")
    print(f"  simulation alone (admission + TAS placement):      {_medians(core)}")


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    now = _clock()
    return now[0] - start[0], now[1] - start[1]


def _medians(samples: list[tuple[float, float]]) -> str:
    """Wall clock and CPU time: on a shared machine the CPU time is the steadier figure."""
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"median {wall:.2f} s wall, {cpu:.2f} s CPU"


if __name__ == "__main__":
    main()
