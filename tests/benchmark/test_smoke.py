"""Issue 6's CI smoke test: the fleet generator and the benchmark at 1k nodes (no timing asserted),
and an error position that stays exact in a 20,000-line inventory."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchmarks import run as bench
from benchmarks.generate import generate
from benchmarks.report import COMMANDS, LABELS

pytestmark = pytest.mark.benchmark  # not in the default run: `pytest -m benchmark` (CI runs both)
NODES = 1000
PROVIDER = "net.unbounded-cloud.io"


def _load(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def test_generator_writes_the_fleet_issue_6_asks_for(tmp_path: Path) -> None:
    forms = ["native", "kubectl", "kubectl-json"]
    written = generate(tmp_path / "a", NODES, forms=forms)
    again = generate(tmp_path / "b", NODES, forms=forms)
    for form in forms:  # seeded: same arguments, same bytes
        assert written[form].inventory.read_bytes() == again[form].inventory.read_bytes()
    nodes = _load(written["native"].inventory)["nodes"]
    kubectl = _load(written["kubectl"].inventory)
    assert kubectl == json.loads(written["kubectl-json"].inventory.read_bytes())  # YAML == JSON form
    assert len(nodes) == len(kubectl["items"]) == NODES
    assert sum(1 for n in nodes if n.get("ready") is False) == NODES * 2 // 100
    assert {n["vmSize"] for n in nodes if "nvidia.com/gpu" not in n["allocatable"]}  # CPU-only nodes
    assert len({n["vmSize"] for n in nodes}) >= 8
    racks: dict[str, set[str]] = defaultdict(set)
    fabrics: dict[str, int] = defaultdict(int)
    for node in nodes:
        labels = node["labels"]
        if f"{PROVIDER}/network-domain" in labels:
            fabrics[labels[f"{PROVIDER}/network-domain"]] += 1
        if f"{PROVIDER}/accelerator-domain" in labels:
            racks[labels[f"{PROVIDER}/accelerator-domain"]].add(labels[f"{PROVIDER}/network-domain"])
    assert racks and max(fabrics.values()) <= 512
    assert all(len(fabric) == 1 for fabric in racks.values())  # a rack never spans two fabrics
    hosts: dict[str, int] = defaultdict(int)
    for node in nodes:
        if f"{PROVIDER}/accelerator-domain" in node["labels"]:
            hosts[node["labels"][f"{PROVIDER}/accelerator-domain"]] += 1
    assert max(hosts.values()) == 18
    item = kubectl["items"][-1]
    assert {"nodeInfo", "addresses", "images", "conditions", "allocatable"} <= set(item["status"])
    assert "topology.kubernetes.io/region" in item["metadata"]["labels"]


def test_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    argv = ["--sizes", str(NODES), "--repeat", "1", "--json", str(results), "--work", str(tmp_path / "w")]
    assert bench.main(argv) == 0
    data = json.loads(results.read_text())
    [case] = data["cases"]
    assert (case["size"], case["form"]) == (NODES, "native")
    assert set(case["median_seconds"]) == set(LABELS)
    assert set(case["peak_bytes"]) == set(COMMANDS)
    figures = [*case["median_seconds"].values(), *case["peak_bytes"].values(), *case["ratios"].values()]
    assert all(isinstance(x, int | float) and x > 0 for x in figures), case
    assert len(case["ratios"]) == 4
    assert case["noop_rewrote"] == []
    assert case["inventory"]["nodes"] == NODES and case["output"]["objects"] > NODES * 0.9
    assert {t["target"] for t in data["targets"]} == {
        "cold/floor",
        "noop/floor_parse",
        "check/floor_parse",
        "validate/floor_tree",
        "peak",
        "startup",
        "noop rewrites no file",
        "largest_object_bytes",
        "largest_file_bytes",
        "largest_inventory_bytes",
    }
    issue = {(t["target"], t["over"]) for t in data["issue_36"]}  # no baseline given: shown, unjudged
    assert issue == {
        ("cold", "floor"),
        ("check", "floor"),
        ("validate", "floor_tree"),
        ("diff_changed", "floor"),
    } | {(k, "baseline") for k in ("noop", "startup", "peak")}
    limits = case["limits"]  # SPEC G1/G2 (benchmarks/limits.py)
    assert limits["shards"] >= 1 and 0 < limits["largest_shard_objects"] <= 2000
    assert all(t["met"] for t in data["targets"] if t["target"].startswith("largest_"))


def test_error_position_is_exact_near_the_end_of_a_large_inventory(tmp_path: Path) -> None:
    results = tmp_path / "position.json"
    argv = ["--position-check", "--position-lines", "20000", "--json", str(results), "--work", str(tmp_path)]
    assert bench.main(argv) == 0
    check = json.loads(results.read_text())["position_check"]
    expected = check["expected"]
    assert expected["line"] >= 20_000
    assert [(p["line"], p["col"]) for p in check["reported"]] == [(expected["line"], expected["col"])]
    assert check["exit_code"] == 2 and check["exact"]
