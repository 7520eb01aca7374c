"""G1: node labels in shards of at most shardSize objects; one node changes its own shard only."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taugen.compile.manifest import Manifest, object_
from taugen.compile.nodelabels.shards import sharded
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

FABRIC = "net.unbounded-cloud.io/network-domain"


def _shard_files(out: Path) -> dict[str, dict[str, bytes]]:
    nodes = out / "c1" / "nodes"
    return {
        shard.name: {p.name: p.read_bytes() for p in sorted(shard.iterdir())}
        for shard in sorted(nodes.iterdir())
    }


def _fleet(extra: int = 0) -> list[dict[str, object]]:
    nodes = [gpu_node(f"a-{i}", labels={FABRIC: "ib-a"}) for i in range(4)]
    nodes += [gpu_node(f"b-{i}", labels={FABRIC: "ib-b"}) for i in range(4 + extra)]
    return nodes


@pytest.mark.parametrize("node_labels", ["node", "nfd"])
def test_adding_a_node_changes_only_its_own_shard(tmp_path: Path, node_labels: str) -> None:
    project = write_project(tmp_path, inventory(_fleet()), nodeLabels=node_labels)
    run_build(project)
    before = _shard_files(tmp_path / "out")
    write_project(tmp_path, inventory(_fleet(extra=1)), nodeLabels=node_labels)
    run_build(project)
    after = _shard_files(tmp_path / "out")
    assert sorted(before) == sorted(after) == ["h200-141gb.ib-a", "h200-141gb.ib-b"]
    assert [s for s in before if before[s] != after[s]] == ["h200-141gb.ib-b"]


def test_the_core_kustomization_lists_no_shard(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory(_fleet())))
    core = yaml.safe_load((tmp_path / "out" / "c1" / "kustomization.yaml").read_text())
    assert not [r for r in core["resources"] if r.startswith("nodes")]
    shard = yaml.safe_load(
        (tmp_path / "out" / "c1" / "nodes" / "h200-141gb.ib-a" / "kustomization.yaml").read_text()
    )
    assert shard["resources"] == ["nodes.yaml"]


def _nodes(count: int) -> list[Manifest]:
    return [Manifest("nodes/h200/ib-1.yaml", object_("v1", "Node", f"n-{i:04d}")) for i in range(count)]


def test_a_group_past_shard_size_is_split_deterministically_and_stably() -> None:
    placed = sharded(_nodes(250), 100)
    folders = {m.file.rpartition("/")[0] for m in placed}
    assert folders == {f"nodes/h200.ib-1.part-{i}-of-3" for i in (1, 2, 3)}
    per = {f: sum(m.file.startswith(f + "/") for m in placed) for f in folders}
    assert max(per.values()) <= 100 and sum(per.values()) == 250
    again = sharded(list(reversed(_nodes(250))), 100)  # the order given does not matter
    assert {(m.file, m.obj["metadata"]["name"]) for m in again} == {
        (m.file, m.obj["metadata"]["name"]) for m in placed
    }
    grown = {m.obj["metadata"]["name"]: m.file for m in sharded(_nodes(251), 100)}
    assert {n: f for n, f in grown.items() if n != "n-0250"} == {
        m.obj["metadata"]["name"]: m.file for m in placed
    }


def test_a_shard_is_split_into_files_under_a_mebibyte() -> None:
    labels = {f"example.com/label-{i}": "x" * 40 for i in range(20)}
    nodes = [
        Manifest(
            "nodes/h200/ib-1.yaml",
            object_("v1", "Node", f"n-{i:04d}") | {"metadata": {"name": f"n-{i:04d}", "labels": labels}},
        )
        for i in range(2000)
    ]
    files = {m.file for m in sharded(nodes, 2000)}
    assert len(files) > 1 and all(f.startswith("nodes/h200.ib-1/nodes-") for f in files)
