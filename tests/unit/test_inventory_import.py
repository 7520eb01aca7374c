"""`taugen inventory import` (issue 11): facts from the cluster, everything else as written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taugen.commands.inventory.changes import FleetChanges, NodeChange
from taugen.commands.inventory.refresh import ImportResult, import_nodes
from taugen.load.inventory import Inventory, load_inventory
from tests.support.helpers import snapshot
from tests.support.unit import problems_of
from tests.support.views import CASES, GOLDEN

NATIVE = CASES / "project" / "native" / "inventory.yaml"
KUBE = CASES / "project" / "kube" / "nodes.yaml"
LIVE = {"yaml": CASES / "live" / "import.yaml", "json": CASES / "live" / "import.json"}
EXPECTED = GOLDEN / "import" / "inventory.yaml"
FABRIC = "net.unbounded-cloud.io/network-domain"
LONG = "a100-with-a-hostname-far-too-long-for-a-singleton-label-value-0"
CHANGES = FleetChanges(
    added=("h200-2",),
    removed=(LONG,),
    changed=(
        NodeChange("a100-0", ("label net.unbounded-cloud.io/accelerator-domain added: island-9",)),
        NodeChange("gb200-0", ("label net.unbounded-cloud.io/accelerator-domain removed (was nvl72-a)",)),
        NodeChange("h200-0", ("allocatable nvidia.com/gpu 8 -> 7",)),
        NodeChange(
            "h200-1", ("ready false -> true", "label net.unbounded-cloud.io/network-domain fab-1 -> fab-3")
        ),
        NodeChange(
            "sys-0",
            (
                "vmSize Standard_D8s_v5 -> Standard_D16s_v5",
                "allocatable cpu 8 -> 16",
                "allocatable memory 28Gi -> 56Gi",
            ),
        ),
    ),
    unchanged=1,
)
ALL_BUT_THE_REMOVED = ["a100-0", "cpu-0", "gb200-0", "h200-0", "h200-1", "sys-0"]
STAMPS = ("2026-11-28T12:00:00Z", "2026-11-29T09:00:00Z")


def _copy(source: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(source, tmp_path / source.name))


def _facts(inventory: Inventory) -> dict[str, tuple[object, ...]]:
    """What import owns: vmSize, effective site, ready, allocatable, provider labels."""
    return {
        n.name: (
            n.vm_size,
            n.site or inventory.site,
            n.ready,
            {k: q.canonical() for k, q in n.allocatable.items()},
            {k: v for k, v in n.labels.items() if k.startswith("net.unbounded-cloud.io/")},
        )
        for n in inventory.nodes
    }


@pytest.mark.parametrize("form", sorted(LIVE))
def test_round_trip_keeps_comments_and_hand_written_fields(tmp_path: Path, form: str) -> None:
    """From `kubectl get nodes -o yaml` and `-o json`: the same file, byte for byte."""
    target = _copy(NATIVE, tmp_path)
    result = import_nodes(LIVE[form], target, dry_run=False)
    assert result == ImportResult(target, "ClusterInventory", STAMPS, CHANGES, True, True)
    text = target.read_text()
    assert text == EXPECTED.read_text()
    kept = [line for line in NATIVE.read_text().splitlines() if "#" in line or "by hand" in line]
    assert [line for line in kept if line not in text.splitlines()] == []
    refreshed = load_inventory(target)
    assert _facts(refreshed) == _facts(load_inventory(LIVE[form]))
    assert refreshed.nodes[1].labels["example.com/owner"] == "team-llm"  # hand-added label kept
    assert refreshed.nodes[2].site == "eastus"  # the hand-written site stays on a100-0


def test_an_anchor_name_used_twice_is_kept_without_a_warning(tmp_path: Path) -> None:
    """YAML 1.2 lets a later anchor take an earlier one's name; the round trip keeps both."""
    target = tmp_path / "inventory.yaml"
    sku = "vmSize: Standard_ND96isr_H200_v5"
    target.write_text(NATIVE.read_text().replace(sku, sku.replace(": ", ": &sku ")))
    import_nodes(LIVE["yaml"], target, dry_run=False)
    assert target.read_text() == EXPECTED.read_text().replace(sku, sku.replace(": ", ": &sku "), 2)


def test_a_second_import_changes_nothing(tmp_path: Path) -> None:
    target = _copy(NATIVE, tmp_path)
    import_nodes(LIVE["yaml"], target, dry_run=False)
    before = snapshot(tmp_path)
    again = import_nodes(LIVE["yaml"], target, dry_run=False)
    assert (again.changes, again.changed_file, again.written) == (FleetChanges((), (), (), 7), False, False)
    assert snapshot(tmp_path) == before


def test_dry_run_reports_and_writes_nothing(tmp_path: Path) -> None:
    target = _copy(NATIVE, tmp_path)
    before = snapshot(tmp_path)
    result = import_nodes(LIVE["json"], target, dry_run=True)
    assert result == ImportResult(target, "ClusterInventory", STAMPS, CHANGES, True, False)
    assert snapshot(tmp_path) == before


def test_a_nodelist_inventory_is_replaced_by_the_export(tmp_path: Path) -> None:
    """kubectl output holds nothing written by hand: the new export replaces it as it is."""
    target = _copy(KUBE, tmp_path)
    result = import_nodes(LIVE["yaml"], target, dry_run=False)
    assert target.read_bytes() == LIVE["yaml"].read_bytes()
    assert (result.form, result.observed_at, result.written) == ("NodeList", STAMPS, True)
    assert [c.name for c in result.changes.changed] == [
        "a100-0",
        "cpu-0",
        "gb200-0",
        "h200-0",
        "h200-1",
        "sys-0",
    ]
    assert result.changes.changed[1] == NodeChange("cpu-0", ("allocatable pods removed (was 110)",))


def test_the_source_must_be_the_clusters_node_list(tmp_path: Path) -> None:
    target = _copy(NATIVE, tmp_path)
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: import_nodes(NATIVE, target, dry_run=False))
    assert (problem.line, problem.rule, problem.hint) == (
        3,
        "inventory",
        "export it with `kubectl get nodes -o yaml > nodes.yaml`",
    )
    assert snapshot(tmp_path) == before


def test_a_bad_export_writes_nothing(tmp_path: Path) -> None:
    """A node list that does not load is refused with its position (exit 2), nothing written."""
    target = _copy(NATIVE, tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text(LIVE["yaml"].read_text().replace("nvidia.com/gpu: '7'", "nvidia.com/gpu: '7.5'"))
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: import_nodes(bad, target, dry_run=False))
    assert (problem.path, problem.rule) == (bad, "inventory")
    assert snapshot(tmp_path) == before
