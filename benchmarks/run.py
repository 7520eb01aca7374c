"""Issue 6's benchmark: taugen against the floor, on synthetic fleets, in one run.

    python -m benchmarks.run                                  # 1k and 10k nodes, 5 runs each
    python -m benchmarks.run --sizes 1000,10000,100000 --repeat 3 --json results.json
    python -m benchmarks.run --forms native,kubectl           # also the `kubectl get nodes` form
    python -m benchmarks.run --position-check                 # a bad value near line 1,000,000

Per size and form, each repeat runs, as fresh `python -m taugen` processes: a cold build into an
empty output root (no out/, no lock), a no-op rebuild (which must rewrite no file), build
--check, validate, diff of the tree against itself and against the tree of a slightly changed
fleet, and `--version` (interpreter start and imports); then the floor, in a fresh
process too (benchmarks/floor.py).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from benchmarks.generate import FORMS, IMAGES, SEED, Generated, generate
from benchmarks.issue36 import issue_table, issue_targets
from benchmarks.limits import tree_limits
from benchmarks.measure import rewritten, snapshot, taugen
from benchmarks.position import check_position
from benchmarks.report import Case, scaling, table, targets

FLOOR = Path(__file__).with_name("floor.py")
# One TAB press after `taugen build --cluster `: the fleet project's cluster names (issue 21)
COMPLETE = {"_TAUGEN_COMPLETE": "bash_complete", "COMP_WORDS": "taugen build --cluster ", "COMP_CWORD": "3"}


def prepare(work: Path, size: int, form: str, seed: int, images: int) -> tuple[Generated, Path]:
    """The fleet, and the tree built from its slightly changed variant (for diff)."""
    base = generate(work / f"n{size}", size, seed=seed, forms=[form], images=images)[form]
    changed = generate(work / f"n{size}-changed", size, seed=seed, forms=[form], changed=True, images=images)
    folder = changed[form].project.parent
    _clean(folder)
    taugen("build", cwd=folder)
    return base, folder / "out"


def _clean(folder: Path) -> None:
    shutil.rmtree(folder / "out", ignore_errors=True)
    (folder / "taugen.lock").unlink(missing_ok=True)


def measure(generated: Generated, changed_out: Path, repeat: int) -> Case:
    folder = generated.project.parent
    inventory = {
        "path": str(generated.inventory),
        "nodes": generated.nodes,
        "bytes": generated.size,
        "lines": generated.inventory.read_bytes().count(b"\n"),
        "generate_seconds": generated.seconds,
    }
    case = Case(generated.nodes, generated.form, inventory)
    for _ in range(repeat):
        _clean(folder)
        _taugen(case, "cold", folder, "build")
        before = snapshot(folder / "out", folder / "taugen.lock")
        if "up to date" not in _taugen(case, "noop", folder, "build"):
            case.rewrote.append("(the no-op build did not say `up to date`)")
        case.rewrote += rewritten(before, snapshot(folder / "out", folder / "taugen.lock"))
        _taugen(case, "check", folder, "build", "--check")
        _taugen(case, "validate", folder, "validate")
        if "No changes." not in _taugen(case, "diff_self", folder, "diff", "out", "out"):
            raise RuntimeError("taugen diff of a tree against itself found changes")
        _taugen(case, "diff_changed", folder, "diff", "out", str(changed_out))
        _taugen(case, "startup", folder, "--version")
        _taugen(case, "help", folder, "--help")  # issue 21: these three within 0.3 s
        if "plain," not in _taugen(case, "complete", folder, env=COMPLETE):
            raise RuntimeError("a completion request completed nothing")
        _floor(case, generated.inventory, folder / "out")
    return case


def _floor(case: Case, inventory: Path, out_root: Path) -> None:
    """The floor, in a fresh process (see floor.py)."""
    command = [sys.executable, str(FLOOR), str(inventory), str(out_root)]
    figures = json.loads(subprocess.run(command, capture_output=True, check=True, text=True).stdout)
    for kind in ("parse", "parse_gc", "dump", "dump_gc", "tree", "tree_gc"):
        case.add(f"floor_{kind}", figures[kind])
    files = list(out_root.rglob("*.yaml"))
    case.output = {
        "files": len(files),
        "bytes": sum(f.stat().st_size for f in files),
        "objects": figures["objects"],
    }
    case.limits = tree_limits(out_root)


def _taugen(case: Case, kind: str, folder: Path, *args: str, env: dict[str, str] | None = None) -> str:
    run = taugen(*args, cwd=folder, env=env)
    case.add(kind, run.seconds, run.peak_bytes)
    print(f"  {kind}: {run.seconds:.2f} s, peak {run.peak_bytes / 2**20:.0f} MiB", file=sys.stderr)
    return run.stdout


def machine() -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "pyyaml": yaml.__version__,
        "libyaml": bool(getattr(yaml, "__with_libyaml__", False)),
        "floor_parser": "yaml.CSafeLoader (libyaml); json.loads for .json",
        "floor_dumper": "yaml.CSafeDumper (libyaml)",
        "taugen": _source_state(),
    }


def _source_state() -> dict[str, Any]:
    """Which taugen was measured: the commit and the files changed since (a working tree moves)."""
    repo = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    changed = git("status", "--porcelain", "--", "taugen").splitlines()
    return {"commit": git("rev-parse", "HEAD"), "changed_files": [line[3:] for line in changed]}


def benchmark(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    cases = []
    for size in args.sizes:
        for form in args.forms:
            print(f"# {form} {size}: generating and measuring ({args.repeat} run(s))", file=sys.stderr)
            generated, changed_out = prepare(work, size, form, args.seed, args.images)
            cases.append(measure(generated, changed_out, args.repeat))
    scale = scaling(cases)
    print(table(cases, scale, args.repeat), end="")
    recorded = [c.as_json() for c in cases]
    baseline = json.loads(args.baseline.read_text(encoding="utf-8"))["cases"] if args.baseline else []
    issue = issue_targets(recorded, baseline)
    print("\n" + issue_table(issue), end="")
    return {
        "machine": machine(),
        "repeat": args.repeat,
        "seed": args.seed,
        "cases": recorded,
        "scaling": scale,
        "targets": targets(cases, scale),
        "issue_36": issue,
    }


def position(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    result = check_position(work, args.position_form, args.position_lines)
    line, col = result.expected
    print(
        f"{result.form}: {result.nodes} nodes, {result.lines} lines; corrupted the GPU count at {line}:{col}"
    )
    for got_line, got_col, message in result.reported:
        print(f"  taugen reported {got_line}:{got_col}: {message}")
    print(f"  exit {result.code} in {result.seconds:.1f} s, peak {result.peak_bytes / 2**20:.0f} MiB")
    print("position exact" if result.exact else "POSITION WRONG")
    return {
        "position_check": {
            "form": result.form,
            "nodes": result.nodes,
            "lines": result.lines,
            "expected": {"line": line, "col": col},
            "reported": [{"line": a, "col": b, "message": m} for a, b, m in result.reported],
            "exit_code": result.code,
            "seconds": result.seconds,
            "peak_bytes": result.peak_bytes,
            "exact": result.exact,
        }
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", default="1000,10000", help="comma-separated node counts (default 1000,10000)"
    )
    parser.add_argument(
        "--forms", default="native", help=f"comma-separated of {', '.join(FORMS)} (default native)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (default 5)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument(
        "--baseline", type=Path, help="an earlier run's --json: no-op, startup and peak are kept against it"
    )
    parser.add_argument(
        "--work", type=Path, help="keep the fleets and trees in this folder (default: a temp dir)"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--images", type=int, default=IMAGES, help="images per node in the kubectl forms")
    parser.add_argument("--position-check", action="store_true", help="only check an error position at scale")
    parser.add_argument(
        "--position-lines", type=int, default=1_000_000, help="inventory lines (default 1000000)"
    )
    parser.add_argument("--position-form", choices=sorted(FORMS), default="native")
    args = parser.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s]
    args.forms = [f for f in args.forms.split(",") if f]
    if unknown := sorted(set(args.forms) - set(FORMS)):
        parser.error(f"unknown form(s): {', '.join(unknown)}")
    if args.repeat < 1 or any(s < 1 for s in args.sizes):
        parser.error("--repeat and every size must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="taugen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        results = position(args, work) if args.position_check else benchmark(args, work)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if args.position_check:
        return 0 if results["position_check"]["exact"] else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
