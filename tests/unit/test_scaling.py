"""Issue 32: what a pull request can make quadratic, counted (not timed): 4,000 small rules took
over 300 s (every node against every rule, every rule label's position looked up), an inventory
with 4,000 problems 211 s (each position a walk of the file from its start), and `shardSize: 1`
dealt a group again for every part count until no two objects collided (the times are in the
commit); here the work is counted, so the tests cannot flake."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from taugen.compile.manifest import Manifest, object_
from taugen.compile.nodelabels import shards
from taugen.load import fast, positions
from taugen.resolve import rules as rules_module
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import problems_of, resolve_project, write_project

N = 1500


def test_many_small_rules_match_each_node_against_its_own_rules_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nodes = [gpu_node(f"h-{i}", vm_size=f"Standard_Custom_{i}") for i in range(N)]
    doc = {
        "extraNodeLabelRules": [
            {"match": {"vmSizes": [f"standard_custom_{i}"]}, "labels": {"tau.azure.com/gpu-class": f"c-{i}"}}
            for i in range(N)
        ]
    }
    project = write_project(tmp_path, inventory(nodes), doc)
    matched = _counted(monkeypatch, rules_module, "_matches")
    walks = _counted(monkeypatch, positions, "position")
    resolved = resolve_project(project)
    assert [n.gpu_class for n in resolved.nodes] == [f"c-{int(n.name[2:])}" for n in resolved.nodes]
    assert matched["calls"] <= 2 * N  # was N * (N + 5)
    assert walks["calls"] == 0  # valid rules look up no position


def test_label_rules_are_matched_through_their_first_key() -> None:
    """R36 rules (labels only) and R1 rules together, in file order, the last winning (R2)."""
    from taugen.load.rules import LoadedRule
    from taugen.models.rules import NodeLabelRule, RuleMatch

    def rule(match: dict[str, Any], gpu_class: str) -> LoadedRule:
        return LoadedRule(
            NodeLabelRule(match=RuleMatch(**match), labels={"example.com/c": gpu_class}), None, ()
        )

    rule_set = rules_module.RuleSet(
        [
            rule({"labels": {"nvidia.com/gpu.product": ["A", "B"]}}, "by-product"),
            rule({"vmSizes": ["S1"], "labels": {"pool": ["p"]}}, "by-size-and-pool"),
            rule({"labels": {"b": ["1"], "a": ["2"]}}, "by-two-keys"),
        ]
    )
    assert rule_set.labels_for("s1", {"nvidia.com/gpu.product": "B", "pool": "p"}) == {
        "example.com/c": "by-size-and-pool"
    }
    assert rule_set.labels_for("s1", {"nvidia.com/gpu.product": "B"}) == {"example.com/c": "by-product"}
    assert rule_set.labels_for(None, {"a": "2", "b": "1"}) == {"example.com/c": "by-two-keys"}
    assert rule_set.labels_for(None, {"a": "2"}) == {}


def test_many_problems_in_one_file_walk_it_a_few_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = write_project(tmp_path, inventory([gpu_node(f"h-{i}", vm_size=f"X_{i}") for i in range(N)]))
    walks = _counted(monkeypatch, positions, "position")
    indexed = _counted(monkeypatch, positions.Index, "__init__")
    problems = problems_of(lambda: resolve_project(project))
    assert len(problems) == N and {p.rule for p in problems} == {"R4"}
    lines = (tmp_path / "inventory.yaml").read_text().splitlines()
    assert sorted(lines[p.line - 1][p.col - 1 :] for p in problems) == sorted(f"X_{i}" for i in range(N))
    assert (walks["calls"], indexed["calls"]) == (fast.INDEX_AFTER, 1)  # was N walks


def test_shard_size_one_deals_each_object_once_per_try(monkeypatch: pytest.MonkeyPatch) -> None:
    hashed = _counted(monkeypatch, hashlib, "sha256")
    group = [Manifest("nodes/h200/ib-1.yaml", object_("v1", "Node", f"n-{i:04d}")) for i in range(300)]
    placed = shards.sharded(group, 1)
    folders = [m.file.rpartition("/")[0] for m in placed]
    assert len(set(folders)) == len(folders) == 300  # one object a shard
    assert hashed["calls"] == 300  # was once per object and part count tried: about 300 * 45,000
    assert {m.file for m in shards.sharded(list(reversed(group)), 1)} == {m.file for m in placed}


def test_names_chosen_to_collide_are_still_dealt_in_parts_of_shard_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every object hashing alike: no part count fits, and the objects take the next part with room."""
    monkeypatch.setattr(shards, "_hash", lambda manifest: 7)
    group = [Manifest("nodes/h200/ib-1.yaml", object_("v1", "Node", f"n-{i:04d}")) for i in range(500)]
    placed = shards.sharded(group, 10)
    per: dict[str, int] = {}
    for manifest in placed:
        per[manifest.file] = per.get(manifest.file, 0) + 1
    assert len(placed) == 500 and max(per.values()) == 10
    assert {f.split("/")[1].rpartition("-of-")[2] for f in per} == {"63"}  # 80 % full: ceil(500 * 5 / 40)


def _counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> dict[str, int]:
    count = {"calls": 0}
    original = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        count["calls"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return count
