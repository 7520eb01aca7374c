"""Scenarios on a fleet that declares its own topology levels (issue 34, SPEC R42, R43), for
simulate vs the real Kueue: 2 rows x 2 racks of 8-GPU H200 nodes, the rack and row in the
fleet's own labels, an InfiniBand fabric that crosses a rack boundary, one node NotReady, one
tainted, and (in some scenarios) one node without a rack label. Each scenario is a cluster of
one project (written by simkueue_scenarios.write_project), with its runs in sequence.

    row r1: rack a: a0 a1 (fabric ib-1)  a2 (ib-2)   rack b: b0 b1 (ib-2)
    row r2: rack c: c0 c1 c2 (ib-3; c2 NotReady)     rack d: d0 d1 (ib-3; d1 tainted)

Free for an untolerating run: rack a 24 GPUs, b 16, c 16, d 8; row r1 40, r2 24."""

from __future__ import annotations

from typing import Any

from tests.realcluster.simkueue_scenarios import FABRIC, MAINTENANCE, Scenario

ROW, RACK = "dc.example.org/row", "dc.example.org/rack"
GPU_CLASS = "h200-141gb"
VM_SIZE = "Standard_ND96isr_H200_v5"
OWN = [{"name": "row", "label": ROW}, {"name": "rack", "label": RACK}]
UNMAPPED = {"levels": OWN}  # Topology: site, row, rack, network-domain, accelerator-domain, host
NET_ON_ROW = {"levels": OWN, "placements": {"same-network-domain": "row"}}  # site, row, rack, acc., host
# node -> (row, rack, fabric); None: the label is absent
FLEET: dict[str, tuple[str, str | None, str]] = {
    "a0": ("r1", "a", "ib-1"),
    "a1": ("r1", "a", "ib-1"),
    "a2": ("r1", "a", "ib-2"),
    "b0": ("r1", "b", "ib-2"),
    "b1": ("r1", "b", "ib-2"),
    "c0": ("r2", "c", "ib-3"),
    "c1": ("r2", "c", "ib-3"),
    "c2": ("r2", "c", "ib-3"),
    "d0": ("r2", "d", "ib-3"),
    "d1": ("r2", "d", "ib-3"),
}
NOT_READY, TAINTED = "c2", "d1"
UNRACKED = {"e0": ("r2", None, "ib-3")}  # in row r2, no rack label (utiltas.LevelValues: "")


def fleet(extra: dict[str, tuple[str, str | None, str]] | None = None) -> list[dict[str, Any]]:
    nodes = []
    for name, (row, rack, fabric) in {**FLEET, **(extra or {})}.items():
        labels = {ROW: row, FABRIC: fabric} | ({RACK: rack} if rack is not None else {})
        node: dict[str, Any] = {
            "name": name,
            "vmSize": VM_SIZE,
            "allocatable": {"cpu": "96", "memory": "1800Gi", "nvidia.com/gpu": "8"},
            "labels": labels,
        }
        if name == NOT_READY:
            node["ready"] = False
        if name == TAINTED:
            node["taints"] = [MAINTENANCE]
        nodes.append(node)
    return nodes


def run(name: str, topology: Any, workers: int, gpus: int = 8, hour: int = 8) -> dict[str, Any]:
    """`workers` pods of `gpus` GPUs; `topology` a contract value or {required|preferred: <level>} (R43)."""
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": f"2026-11-29T{hour:02d}:00:00Z",
        "profile": GPU_CLASS,
        "policy": {"topology": topology},
        "workers": workers,
        "resources": {"nvidia.com/gpu": gpus},
    }


def scenario(name: str, topology: dict[str, Any], runs: list[dict[str, Any]], **extra: Any) -> Scenario:
    return Scenario(name, GPU_CLASS, fleet(extra.get("unracked")), runs, topology=topology)


def _runs(*given: tuple[Any, int, int]) -> list[dict[str, Any]]:
    """(topology, workers, GPUs per pod) each, created an hour apart in this order."""
    return [run(f"r{i}", t, workers, gpus, hour=8 + i) for i, (t, workers, gpus) in enumerate(given)]


def _required(level: str) -> dict[str, str]:
    return {"required": level}


def _preferred(level: str) -> dict[str, str]:
    return {"preferred": level}


RACK_RUN, ROW_RUN = _required("rack"), _required("row")
SCENARIOS = [
    # racks filled one by one: the NotReady and the tainted node take nothing
    scenario(
        "lv-fill",
        UNMAPPED,
        _runs((RACK_RUN, 3, 8), (RACK_RUN, 2, 8), (RACK_RUN, 2, 8), (RACK_RUN, 1, 8), (RACK_RUN, 1, 8)),
    ),
    # fits in no rack, only in row r1; then in no row (r1 used)
    scenario("lv-row", UNMAPPED, _runs((RACK_RUN, 4, 8), (ROW_RUN, 4, 8), (ROW_RUN, 4, 8))),
    # fits nowhere as one row; preferred, it spans both
    scenario("lv-nowhere", UNMAPPED, _runs((ROW_RUN, 6, 8), (_preferred("rack"), 6, 8))),
    scenario(
        "lv-prefer",
        UNMAPPED,
        _runs((_preferred("rack"), 4, 8), (_preferred("row"), 4, 8), (_preferred("rack"), 2, 4)),
    ),
    # 4-GPU pods: several per host
    scenario("lv-pack", UNMAPPED, _runs((RACK_RUN, 5, 4), (RACK_RUN, 7, 4), (ROW_RUN, 7, 4))),
    # the unmapped network domain sits below the rack: ib-2 (a2, b0, b1) is split at the rack
    scenario(
        "lv-net",
        UNMAPPED,
        _runs(
            ("same-network-domain", 3, 8),
            ("same-network-domain", 4, 8),
            ("same-network-domain", 6, 8),
            ("same-network-domain", 2, 8),
            ("prefer-network-domain", 3, 8),
            ("same-network-domain", 3, 4),
        ),
    ),
    # e0 in row r2 has no rack label
    scenario("lv-unracked", UNMAPPED, _runs((ROW_RUN, 5, 8), (ROW_RUN, 4, 8)), unracked=UNRACKED),
    scenario(
        "lv-unracked-fill",
        UNMAPPED,
        _runs((RACK_RUN, 3, 8), (RACK_RUN, 2, 8), (RACK_RUN, 2, 8), (RACK_RUN, 1, 8), (RACK_RUN, 1, 8)),
        unracked=UNRACKED,
    ),
    # same-network-domain mapped onto the row: no network-domain level, the rack whole
    scenario(
        "lm-net",
        NET_ON_ROW,
        _runs(
            ("same-network-domain", 4, 8),
            ("same-network-domain", 4, 8),
            (RACK_RUN, 2, 8),
            (_preferred("rack"), 2, 8),
        ),
    ),
    scenario(
        "lm-mixed",
        NET_ON_ROW,
        _runs(
            ("same-network-domain", 6, 8),
            ("prefer-network-domain", 6, 8),
            ("same-accelerator-domain", 1, 8),
            (RACK_RUN, 3, 8),
        ),
    ),
]
