"""The floor: what any tool must pay to read the inventory and write the same output objects.

    python benchmarks/floor.py INVENTORY OUT_ROOT      # prints the figures as JSON

Parse: the fastest loader installed (PyYAML's libyaml CSafeLoader; json.loads for JSON), file
read included. Dump: PyYAML's CSafeDumper over the objects of the built tree, file by file
(the objects are read once, untimed). Tree: the built tree's files read and parsed by the same
loader, which is what `taugen validate` must do before it checks anything (issue 20). Each is
timed with the cyclic garbage collector on (as a plain script runs) and off (`gc.disable()`
around the call, which any tool may do: parsed YAML holds no cycles); the floor is the faster.
Runs in a fresh process, so the benchmark's own heap does not slow the collector.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

PARSER = "yaml.CSafeLoader (libyaml); json.loads for .json"
DUMPER = "yaml.CSafeDumper (libyaml)"


def parse(inventory: Path) -> Any:
    if inventory.suffix == ".json":
        return json.loads(inventory.read_bytes())
    return yaml.load(inventory.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def read_tree(root: Path) -> dict[str, list[Any]]:
    """The built tree's objects per file."""
    documents = {}
    for path in sorted(root.rglob("*.yaml")):
        with path.open(encoding="utf-8") as stream:
            docs = yaml.load_all(stream, Loader=yaml.CSafeLoader)
            documents[str(path.relative_to(root))] = [d for d in docs if d is not None]
    return documents


def dump(tree: dict[str, list[Any]]) -> int:
    """Serialise every file's objects to YAML text (block style, keys in their order)."""
    return sum(
        len(yaml.dump_all(docs, Dumper=yaml.CSafeDumper, sort_keys=False, default_flow_style=False))
        for docs in tree.values()
    )


def timed(call: Callable[[], Any], *, collect: bool) -> float:
    gc.collect()
    if not collect:
        gc.disable()
    try:
        start = time.perf_counter()
        result = call()
        seconds = time.perf_counter() - start
    finally:
        gc.enable()
    if not result:
        raise ValueError("the floor measured nothing")
    del result
    return seconds


def measure(inventory: Path, out_root: Path) -> dict[str, float | int]:
    figures: dict[str, float | int] = {
        "parse_gc": timed(lambda: parse(inventory), collect=True),
        "parse_no_gc": timed(lambda: parse(inventory), collect=False),
    }
    figures["tree_gc"] = timed(lambda: read_tree(out_root), collect=True)
    figures["tree_no_gc"] = timed(lambda: read_tree(out_root), collect=False)
    tree = read_tree(out_root)
    figures["dump_gc"] = timed(lambda: dump(tree), collect=True)
    figures["dump_no_gc"] = timed(lambda: dump(tree), collect=False)
    figures["parse"] = min(figures["parse_gc"], figures["parse_no_gc"])
    figures["dump"] = min(figures["dump_gc"], figures["dump_no_gc"])
    figures["tree"] = min(figures["tree_gc"], figures["tree_no_gc"])
    figures["objects"] = sum(len(docs) for docs in tree.values())
    figures["files"] = len(tree)
    return figures


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), Path(sys.argv[2]))))
