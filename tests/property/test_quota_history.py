"""R26/R27 over a history of inventories built one after another into the same project.

GPU quota only grows (a vanished class keeps its flavor) unless --allow-quota-decrease is
given, when it is exactly the summed allocatable; slot quota and the ResourceFlavor's
ready-slots annotation always equal the class's Ready node count in the current inventory.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import BUILTIN_CLASSES, NOW, Fleet, build_project, write_fleet
from tests.support.helpers import cpu_node, gpu_node, read_objects
from tests.support.quantity import whole

GPU = "nvidia.com/gpu"
SLOT = "tau.azure.com/torchrun-host-slot"
READY_SLOTS = "tau.azure.com/ready-torchrun-host-slots"
COVERED = ["cpu", "memory", GPU, SLOT]  # R25
CPU_FLAVOR = "taugrid-default-cpu"
FIRST_OBSERVED = NOW - timedelta(days=20)


@dataclass(frozen=True)
class Host:
    name: str
    vm_size: str
    present: bool
    gpus: int
    ready: bool

    @property
    def gpu_class(self) -> str:
        return BUILTIN_CLASSES[self.vm_size]  # R2: built-in sizes, so no rules file is needed


@dataclass(frozen=True)
class Step:
    hosts: tuple[Host, ...]
    allow_quota_decrease: bool

    def nodes(self) -> list[dict[str, Any]]:
        system = cpu_node("aks-system-vmss000000")  # an inventory is never empty
        return [system] + [
            gpu_node(h.name, h.vm_size, h.gpus, ready=h.ready) for h in self.hosts if h.present
        ]

    def gpus(self) -> Counter[str]:
        return Counter(
            {c: sum(h.gpus for h in self.hosts if h.present and h.gpu_class == c) for c in self.classes()}
        )

    def slots(self) -> Counter[str]:
        return Counter(h.gpu_class for h in self.hosts if h.present and h.ready)

    def classes(self) -> set[str]:
        return {h.gpu_class for h in self.hosts if h.present}


@st.composite
def histories(draw: st.DrawFn) -> list[Step]:
    """A fixed pool of hosts; at each step each is present or not, with a GPU count and readiness."""
    sizes = draw(st.lists(st.sampled_from(sorted(BUILTIN_CLASSES)), min_size=1, max_size=6))
    pool = [(f"aks-gpu-vmss{i:06d}", size) for i, size in enumerate(sizes)]
    steps = []
    for _ in range(draw(st.integers(2, 5))):
        hosts = tuple(
            Host(name, size, draw(st.booleans()), draw(st.integers(0, 8)), draw(st.booleans()))
            for name, size in pool
        )
        steps.append(Step(hosts, draw(st.booleans())))
    return steps


def _observed(index: int) -> str:
    return (FIRST_OBSERVED + timedelta(hours=index)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _gpu_flavors(queue: dict[str, Any]) -> dict[str, dict[str, int]]:
    """flavor -> resource -> nominal quota, after checking the group's shape (R25)."""
    (group,) = queue["spec"]["resourceGroups"]
    assert group["coveredResources"] == COVERED
    flavors: dict[str, dict[str, int]] = {}
    for flavor in group["flavors"]:
        assert [r["name"] for r in flavor["resources"]] == COVERED, flavor["name"]
        flavors[flavor["name"]] = {r["name"]: whole(r["nominalQuota"]) for r in flavor["resources"]}
    names = list(flavors)
    assert names[0] == CPU_FLAVOR and names[1:] == sorted(names[1:]), names
    assert flavors.pop(CPU_FLAVOR)[GPU] == 0
    return flavors


@given(histories())
def test_gpu_quota_never_drops_and_slot_quota_tracks_ready_nodes(history: list[Step]) -> None:
    high_water: dict[str, int] = {}  # what the lock records (R26)
    previous: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for index, step in enumerate(history):
            fleet = Fleet(tuple(step.nodes()), (), ("team-a",))
            build_project(
                write_fleet(root, fleet, observed_at=_observed(index)),
                allow_quota_decrease=step.allow_quota_decrease,
            )
            objects = read_objects(root / "out" / "c1")
            flavors = _gpu_flavors(objects["ClusterQueue/taugrid"])
            where = (
                f"step {index} ({'with' if step.allow_quota_decrease else 'without'} --allow-quota-decrease)"
            )

            gpus, slots = step.gpus(), step.slots()
            if step.allow_quota_decrease:
                expected = dict(gpus)  # exactly the summed allocatable; vanished classes pruned
            else:
                for flavor, quota in previous.items():  # never drops, never disappears
                    assert flavor in flavors, f"{where}: flavor {flavor} disappeared"
                    assert flavors[flavor][GPU] >= quota[GPU], f"{where}: {flavor} GPU quota dropped"
                expected = {c: max(gpus[c], high_water.get(c, 0)) for c in {*gpus, *high_water}}
            assert {f: q[GPU] for f, q in flavors.items()} == {
                f"taugrid-{c}": n for c, n in expected.items()
            }, where

            for gpu_class in expected:  # R27 both ways; a vanished class keeps slot quota 0 (R26)
                flavor = f"taugrid-{gpu_class}"
                wanted = slots[gpu_class] if expected[gpu_class] > 0 else 0  # R40: no GPU quota, no slot
                assert flavors[flavor][SLOT] == wanted, f"{where}: slot quota of {flavor}"
                annotations = objects[f"ResourceFlavor/{flavor}"]["metadata"]["annotations"]
                assert annotations[READY_SLOTS] == str(wanted), f"{where}: {READY_SLOTS} of {flavor}"
            resource_flavors = {k for k in objects if k.startswith("ResourceFlavor/")}
            assert resource_flavors == {f"ResourceFlavor/{f}" for f in [CPU_FLAVOR, *flavors]}, where

            lock = json.loads((root / "taugen.lock").read_text())
            assert lock["clusters"]["c1"]["gpuQuota"] == expected, f"{where}: the lock's high-water marks"
            high_water, previous = expected, flavors
