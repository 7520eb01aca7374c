"""Valid fleets as data (nodes, extra rules, tenants), built with tests/support/helpers.py's builders.

Every fleet drawn here builds without error: GPU nodes always get a gpu-class (R4), an
accelerator domain always lies in one network domain of one site (R16), and extra rules
commute (rules of different groups match disjoint vmSizes; rules of one group give the same
value to a label key), so any order of them resolves every node the same way (R2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from taugen.commands.build import BuildOptions, BuildResult, build
from tests.support.helpers import OBSERVED, gpu_node, inventory, rules, write_project

Rule = tuple[list[str], dict[str, str]]

NOW = datetime(2026, 12, 1, tzinfo=UTC)
GPU = "nvidia.com/gpu"
GPU_CLASS = "tau.azure.com/gpu-class"
GPU_SERIES = "kueue.azure.com/gpu-series"
NET = "net.unbounded-cloud.io/network-domain"
ACC = "net.unbounded-cloud.io/accelerator-domain"
BUILTIN_CLASSES = {  # R2
    "Standard_ND96asr_v4": "a100-40gb",
    "Standard_ND96amsr_A100_v4": "a100-80gb",
    "Standard_NC24ads_A100_v4": "a100-80gb",
    "Standard_ND96isr_H100_v5": "h100-80gb",
    "Standard_ND96isr_H200_v5": "h200-141gb",
}
CUSTOM_SIZES = ("Standard_Custom_H200_v5", "Standard_ND128isr_GB200_v6", "Standard_NX_v1", "Standard_NX_v2")
CPU_SIZE = "Standard_D16s_v5"
RULE_CLASSES = ("h200-141gb", "gb200-186gb", "mi300x-192gb", "a100-80gb")
DEFAULT_SITE = "eastus"
SITES = ("eastus", "westus3")
FABRICS = ("ib-fabric-1", "ib-fabric-2")
TENANTS = ("team-a", "team-b", "team-llm", "team-vision", "research")


@dataclass(frozen=True)
class Fleet:
    nodes: tuple[dict[str, Any], ...]
    rules: tuple[Rule, ...]
    tenants: tuple[str, ...]


def fold(size: str) -> str:
    return size.lower()  # the sizes here are ASCII: R1's ASCII case folding


@st.composite
def rule_groups(draw: st.DrawFn) -> tuple[list[Rule], dict[str, str]]:
    """Commuting extra rules and the gpu-class each vmSize resolves to (folded vmSize -> class)."""
    classes = {fold(size): gpu_class for size, gpu_class in BUILTIN_CLASSES.items()}
    groups: dict[int, list[str]] = {}
    for size in (*CUSTOM_SIZES, *BUILTIN_CLASSES):
        group = draw(st.none() | st.integers(0, 2))  # None: no extra rule matches this size
        if group is not None:
            groups.setdefault(group, []).append(size)
    found: list[Rule] = []
    for group, sizes in sorted(groups.items()):
        labels = {GPU_CLASS: draw(st.sampled_from(RULE_CLASSES)), GPU_SERIES: f"custom-series-{group}"}
        if draw(st.booleans()):
            labels["pool.example.com/role"] = draw(st.sampled_from(["train", "serve"]))
        classes.update({fold(size): labels[GPU_CLASS] for size in sizes})
        found.append((sizes, labels))  # the group's base rule: every size gets the class
        for _ in range(draw(st.integers(0, 2))):
            subset = draw(st.lists(st.sampled_from(sizes), min_size=1, unique=True))
            keys = draw(st.lists(st.sampled_from(sorted(labels)), min_size=1, unique=True))
            found.append((subset, {key: labels[key] for key in keys}))
    spelled = [([draw(_case_of(size)) for size in sizes], labels) for sizes, labels in found]
    return spelled, classes


def _case_of(size: str) -> st.SearchStrategy[str]:
    return st.sampled_from([size, size.lower(), size.upper()])  # R1: case is ignored


@st.composite
def fleet_node(draw: st.DrawFn, name: str, classes: dict[str, str]) -> dict[str, Any]:
    vm_size = draw(st.sampled_from([*BUILTIN_CLASSES, *CUSTOM_SIZES, CPU_SIZE]))
    classed = fold(vm_size) in classes
    site = draw(st.sampled_from([None, *SITES]))
    labels: dict[str, str] = {}
    if draw(st.booleans()):
        fabric = draw(st.sampled_from(FABRICS))
        labels[NET] = fabric
        if draw(st.booleans()):  # an NVLink island inside that fabric and site (R16)
            labels[ACC] = f"nvl72-{site or DEFAULT_SITE}-{fabric}-{draw(st.integers(0, 1))}"
    if draw(st.booleans()):
        labels["example.com/rack"] = f"rack-{draw(st.integers(0, 3))}"
    extra: dict[str, Any] = {"site": site} if site else {}
    node = gpu_node(
        name,
        vm_size,
        gpus=draw(st.integers(0, 8)) if classed else 0,  # R4: a GPU node needs a class
        labels=labels or None,
        ready=draw(st.booleans()),
        **extra,
    )
    if draw(st.booleans()):
        node["allocatable"].update({"pods": "110", "ephemeral-storage": "1Ti"})
    return node


@st.composite
def fleets(draw: st.DrawFn, max_nodes: int = 8) -> Fleet:
    extra_rules, classes = draw(rule_groups())
    numbers = draw(st.lists(st.integers(0, 99), min_size=1, max_size=max_nodes, unique=True))
    nodes = tuple(draw(fleet_node(f"aks-gpu-{n:02d}-vmss", classes)) for n in numbers)
    tenants = tuple(draw(st.lists(st.sampled_from(TENANTS), min_size=1, max_size=4, unique=True)))
    return Fleet(nodes, tuple(extra_rules), tenants)


def _shuffled(draw: st.DrawFn, mapping: dict[str, Any]) -> dict[str, Any]:
    return {key: mapping[key] for key in draw(st.permutations(list(mapping)))}


def _shuffled_node(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    out = dict(node, allocatable=_shuffled(draw, node["allocatable"]))
    if "labels" in node:
        out["labels"] = _shuffled(draw, node["labels"])
    return _shuffled(draw, out)


@st.composite
def reorderings(
    draw: st.DrawFn, fleet: Fleet, *, nodes: bool = False, tenants: bool = False, rule_order: bool = False
) -> Fleet:
    """The same fleet with some of its lists and maps in another order."""
    if nodes:
        shuffled = tuple(_shuffled_node(draw, n) for n in draw(st.permutations(fleet.nodes)))
        fleet = replace(fleet, nodes=shuffled)
    if tenants:
        fleet = replace(fleet, tenants=tuple(draw(st.permutations(fleet.tenants))))
    if rule_order:
        shuffled_rules = tuple(
            (draw(st.permutations(sizes)), _shuffled(draw, labels))
            for sizes, labels in draw(st.permutations(fleet.rules))
        )
        fleet = replace(fleet, rules=shuffled_rules)
    return fleet


# Two profiles in one file rather than the eight built-in files: loading them is most of a
# small build's time, and these two still give the catalog (R30) a ready and a not-ready entry.
PROFILES = [
    {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadProfile",
        "metadata": {"name": name},
        "policy": {"gpu_class": gpu_class, "topology": topology},
    }
    for name, gpu_class, topology in (
        ("h200-training", "h200-141gb", "same-network-domain"),
        ("gb200-nvl72", "gb200-186gb", "same-accelerator-domain"),
    )
]


def write_fleet(root: Path, fleet: Fleet, observed_at: str = OBSERVED) -> Path:
    """The fleet as a one-cluster project `c1` in root; returns the project file."""
    (root / "profiles.yaml").write_text(yaml.safe_dump_all(PROFILES, sort_keys=False))
    return write_project(
        root,
        inventory(list(fleet.nodes), observed_at=observed_at, site=DEFAULT_SITE),
        rules(*fleet.rules) if fleet.rules else None,
        tenants=fleet.tenants,
        profiles=["profiles.yaml"],
    )


def build_project(project: Path, *, allow_quota_decrease: bool = False, check: bool = False) -> BuildResult:
    return build(
        BuildOptions(project_file=project, allow_quota_decrease=allow_quota_decrease, check=check, now=NOW)
    )


def output_files(root: Path) -> dict[str, bytes]:
    """out/ and the lock, as a build left them in root."""
    files = {
        f"out/{p.relative_to(root / 'out').as_posix()}": p.read_bytes()
        for p in sorted((root / "out").rglob("*"))
        if p.is_file()
    }
    files["taugen.lock"] = (root / "taugen.lock").read_bytes()
    return files
