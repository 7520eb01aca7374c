"""Issue 6: error positions stay exact at scale. Corrupt one GPU count near the end of a large
inventory and check that `taugen build` reports exactly that line and column."""

from __future__ import annotations

import math
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from benchmarks.generate import generate
from benchmarks.measure import taugen

BAD = '"8.5"'
# Per form: where allocatable starts and ends in the file, and the GPU value's key.
MARKERS = {
    "native": ("    allocatable: {", "}\n", 'nvidia.com/gpu: "'),
    "kubectl": ("    allocatable:\n", "    capacity:\n", 'nvidia.com/gpu: "'),
    "kubectl-json": ('"allocatable": {', "}", '"nvidia.com/gpu": "'),
}
PROBLEM = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.MULTILINE)
SAMPLE_NODES = 200


@dataclass(frozen=True)
class PositionResult:
    form: str
    nodes: int
    lines: int  # of the inventory
    expected: tuple[int, int]  # line, col of the corrupted value
    reported: list[tuple[int, int, str]]  # every problem taugen printed for the inventory
    code: int
    seconds: float
    peak_bytes: int

    @property
    def exact(self) -> bool:
        found = [(line, col) for line, col, message in self.reported if "whole number" in message]
        return self.code == 2 and len(self.reported) == 1 and found == [self.expected]


def corrupt(inventory: Path, form: str) -> tuple[int, int]:
    """Replace the allocatable GPU count of the last GPU node with 8.5; return its line, col."""
    text = inventory.read_text(encoding="utf-8")
    start, stop, key = MARKERS[form]
    end = len(text)
    while (block := text.rfind(start, 0, end)) >= 0:
        found = text.find(key, block, text.find(stop, block))
        if found >= 0:
            value = found + len(key) - 1  # the opening quote
            close = text.index('"', value + 1) + 1
            inventory.write_text(text[:value] + BAD + text[close:], encoding="utf-8")
            line_start = text.rfind("\n", 0, value) + 1
            return text.count("\n", 0, value) + 1, value - line_start + 1
        end = block
    raise ValueError(f"{inventory}: no node with GPUs")


def nodes_for_lines(work: Path, form: str, lines: int) -> int:
    """How many nodes make an inventory of at least `lines` lines in this form."""
    sample = generate(work / "sample", SAMPLE_NODES, forms=[form])[form].inventory
    per_node = sample.read_bytes().count(b"\n") / SAMPLE_NODES
    shutil.rmtree(work / "sample")
    # The last 5% of the fleet are CPU pools: the last GPU value lies before them.
    return max(SAMPLE_NODES, math.ceil(lines / per_node / 0.9))


def check_position(work: Path, form: str, lines: int) -> PositionResult:
    nodes = nodes_for_lines(work, form, lines)
    shutil.rmtree(work / form, ignore_errors=True)
    generated = generate(work, nodes, forms=[form])[form]
    expected = corrupt(generated.inventory, form)
    run = taugen("build", cwd=generated.project.parent, expect=None)
    reported = [
        (int(m["line"]), int(m["col"]), m["message"])
        for m in PROBLEM.finditer(run.stderr)
        if Path(m["file"]).name == generated.inventory.name
    ]
    total = generated.inventory.read_bytes().count(b"\n")
    return PositionResult(form, nodes, total, expected, reported, run.code, run.seconds, run.peak_bytes)
