"""G1: node labels in shards of at most shardSize objects; one node changes its own shard only."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from taugen.compile.manifest import Manifest, object_
from taugen.compile.nodelabels.shards import FILE_BUDGET, _total_estimate, estimated_bytes, sharded
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


_LABEL = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(_LABEL, _LABEL, max_size=4), max_size=6))
def test_one_encoding_of_a_shard_estimates_as_its_objects_one_by_one(labels: list[dict[str, str]]) -> None:
    """G2, issue 36: the shard's estimate from one encoding of its list is the sum of the objects'
    (UTF-8 beyond ASCII, escapes and empty maps included)."""
    manifests = [
        Manifest(
            "nodes/h200/ib-1.yaml",
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"n-{i}", "labels": m}},
        )
        for i, m in enumerate(labels)
    ]
    assert _total_estimate(manifests) == sum(estimated_bytes(m.obj) for m in manifests)


@pytest.mark.parametrize("wide", [0, 9])
def test_a_shard_at_the_budget_stays_one_file_and_one_byte_more_splits(wide: int) -> None:
    """G2: the one-encoding shortcut decides exactly as the object-by-object packing, whichever
    way the first object's guess sends the shard (wide first: object by object; last: its list)."""

    def node(i: int, width: int) -> Manifest:
        obj = {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": f"n-{i}", "labels": {"k": "x" * width}},
        }
        return Manifest("nodes/h200/ib-1.yaml", obj)

    base = [node(i, 0) for i in range(10)]
    width = (FILE_BUDGET - _total_estimate(base)) // 2  # the wide node's label fills the budget
    at_budget = [node(i, width) if i == wide else base[i] for i in range(10)]
    assert _total_estimate(at_budget) == FILE_BUDGET
    assert {m.file for m in sharded(at_budget, 100)} == {"nodes/h200.ib-1/nodes.yaml"}
    over = [node(i, width + 1) if i == wide else base[i] for i in range(10)]
    files = [m.file.rpartition("/")[2] for m in sharded(over, 100)]
    assert files == ["nodes-1.yaml"] * 9 + ["nodes-2.yaml"]  # greedy: the last object is past the budget
