"""A synthetic GPU fleet as plain facts, the same for both inventory forms (deterministic, seeded)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

REGION = "eastus"
OBSERVED = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
CHANGED_OBSERVED = OBSERVED + timedelta(hours=1)
FABRIC_HOSTS = 512  # hosts behind one InfiniBand fabric (net.unbounded-cloud.io/network-domain)
RACK_HOSTS = 18  # hosts of one NVL72 NVLink island (net.unbounded-cloud.io/accelerator-domain)
POOL_HOSTS = 1000  # an AKS scale set holds at most 1000 nodes
NOT_READY = 0.02


@dataclass(frozen=True)
class Pool:
    key: str
    vm_size: str
    share: float  # of the fleet
    gpus: int
    cpu: int  # cores allocatable
    memory_gi: int
    fabric: bool  # on a provider InfiniBand fabric
    racks: bool  # NVL72 racks (accelerator domains); only with a fabric


# Built-in Azure sizes (SPEC R2), a GB200 and a custom H200 SKU classed by the rules file, CPU pools.
POOLS = (
    Pool("gb200", "Standard_ND128isr_GB200_v6", 0.30, 4, 128, 1800, fabric=True, racks=True),
    Pool("h200", "Standard_ND96isr_H200_v5", 0.22, 8, 96, 1800, fabric=True, racks=False),
    Pool("h100", "Standard_ND96isr_H100_v5", 0.20, 8, 96, 1800, fabric=True, racks=False),
    Pool("h200c", "Standard_Custom_H200_v5", 0.03, 8, 96, 1800, fabric=True, racks=False),
    Pool("ndma100", "Standard_ND96amsr_A100_v4", 0.08, 8, 96, 1800, fabric=True, racks=False),
    Pool("nda100", "Standard_ND96asr_v4", 0.04, 8, 96, 850, fabric=False, racks=False),
    Pool("nc24", "Standard_NC24ads_A100_v4", 0.03, 1, 24, 205, fabric=False, racks=False),
    Pool("nc48", "Standard_NC48ads_A100_v4", 0.03, 2, 48, 410, fabric=False, racks=False),
    Pool("nc96", "Standard_NC96ads_A100_v4", 0.02, 4, 96, 820, fabric=False, racks=False),
    Pool("system", "Standard_D16s_v5", 0.02, 0, 16, 56, fabric=False, racks=False),
    Pool("cpu", "Standard_D64s_v5", 0.03, 0, 64, 240, fabric=False, racks=False),
)


@dataclass(frozen=True)
class FleetNode:
    name: str
    pool: Pool
    agentpool: str  # the scale set
    zone: int  # 1..3
    fabric: str | None
    rack: str | None
    ready: bool
    cordoned: bool  # kubectl form: Ready but unschedulable; either way not Ready for taugen
    index: int  # position in the fleet, drives the per-node identifiers


def pool_sizes(nodes: int) -> list[int]:
    """Largest-remainder split of `nodes` over POOLS: always exactly `nodes` in total."""
    exact = [p.share * nodes for p in POOLS]
    sizes = [int(x) for x in exact]
    by_remainder = sorted(range(len(POOLS)), key=lambda i: (sizes[i] - exact[i], i))
    for i in by_remainder[: nodes - sum(sizes)]:
        sizes[i] += 1
    return sizes


def make_fleet(nodes: int, seed: int = 6, *, changed: bool = False) -> list[FleetNode]:
    """`nodes` hosts; `changed` gives the same fleet with a small, valid change (for diff)."""
    rng = random.Random(seed)
    fleet: list[FleetNode] = []
    for pool, size in zip(POOLS, pool_sizes(nodes), strict=True):
        fleet += _pool_nodes(pool, size, rng, len(fleet))
    down = set(rng.sample(range(len(fleet)), round(NOT_READY * len(fleet))))
    fleet = [replace(n, ready=False, cordoned=i % 4 == 0) if i in down else n for i, n in enumerate(fleet)]
    return _change(fleet, seed) if changed else fleet


def _pool_nodes(pool: Pool, size: int, rng: random.Random, start: int) -> list[FleetNode]:
    suffixes = [f"{rng.randrange(10**8):08d}" for _ in range(0, size, POOL_HOSTS)]
    nodes = []
    for i in range(size):
        scale_set = f"{pool.key}{i // POOL_HOSTS:03d}"
        fabric = f"ib-{pool.key}-{i // FABRIC_HOSTS:03d}" if pool.fabric else None
        # A rack never spans two fabrics: numbering restarts in each fabric (the last rack of a
        # fabric may be partial, as racks with failed hosts are).
        rack = f"nvl72-{pool.key}-{i // FABRIC_HOSTS:03d}-{i % FABRIC_HOSTS // RACK_HOSTS:02d}"
        nodes.append(
            FleetNode(
                name=f"aks-{scale_set}-{suffixes[i // POOL_HOSTS]}-vmss{_base36(i % POOL_HOSTS)}",
                pool=pool,
                agentpool=scale_set,
                zone=1 + i % 3,
                fabric=fabric,
                rack=rack if pool.racks else None,
                ready=True,
                cordoned=False,
                index=start + i,
            )
        )
    return nodes


def _base36(value: int, width: int = 6) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    for _ in range(width):
        value, digit = divmod(value, 36)
        out = digits[digit] + out
    return out


def _change(fleet: list[FleetNode], seed: int) -> list[FleetNode]:
    """Flip readiness of 0.1% of the nodes, drop three CPU nodes, add one new GB200 rack."""
    rng = random.Random(seed + 1)
    flips = set(rng.sample(range(len(fleet)), max(1, len(fleet) // 1000)))
    cpu = [i for i, n in enumerate(fleet) if n.pool.gpus == 0][:3]
    kept = [
        replace(n, ready=not n.ready, cordoned=False) if i in flips else n
        for i, n in enumerate(fleet)
        if i not in cpu
    ]
    gb200 = POOLS[0]
    rack = [
        FleetNode(
            name=f"aks-gb200new-{seed:08d}-vmss{_base36(i)}",
            pool=gb200,
            agentpool="gb200new",
            zone=1,
            fabric="ib-gb200-new",
            rack="nvl72-gb200-new-00",
            ready=True,
            cordoned=False,
            index=len(fleet) + i,
        )
        for i in range(RACK_HOSTS)
    ]
    return kept + rack
