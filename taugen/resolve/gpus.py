"""What a node's GPUs are: shared or whole (R38), and GPUs taugen does not count (R40)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from taugen.core.errors import Problem
from taugen.load.document import Position
from taugen.load.inventory import GPU, NodeFacts

# NVIDIA GPU feature discovery's labels (time-slicing and MPS rename the product `…-SHARED`).
REPLICAS = "nvidia.com/gpu.replicas"
PRODUCT = "nvidia.com/gpu.product"
MACHINE = "nvidia.com/gpu.machine"
COUNT = "nvidia.com/gpu.count"
SHARED_SUFFIX = "-SHARED"
# R40: GPU-like resources a flavor does not cover (only nvidia.com/gpu is a covered resource, R25).
UNCOUNTED = ("amd.com/gpu", "microsoft.com/directx")
UNCOUNTED_PREFIXES = ("gpu.intel.com/",)


def _whole_number(text: str | None) -> int | None:
    """A label's decimal count; None for any other text, one of more than 18 digits included
    (issue 32: 4,400 digits passed Python's int-from-text limit, a traceback)."""
    if text is None or len(text) > 18 or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def sharing_factor(node: NodeFacts) -> int | None:
    """R38: how many advertised GPUs one physical GPU is (1: whole); None: shared, factor unknown."""
    replicas = _whole_number(node.labels.get(REPLICAS))
    if replicas is not None and replicas > 1:
        return replicas
    if not node.labels.get(PRODUCT, "").endswith(SHARED_SUFFIX):
        return 1
    count = _whole_number(node.labels.get(COUNT))
    if count and node.gpus > count and node.gpus % count == 0:
        return node.gpus // count
    return None


def _where(node: NodeFacts) -> Position:
    """The label that says the node's GPUs are shared, else its name."""
    key = next((k for k in (REPLICAS, PRODUCT) if k in node.labels), None)
    return node.at("labels", key) if key else node.at("name")


def check_sharing(
    classed: Sequence[tuple[NodeFacts, str]],
) -> tuple[dict[str, int], list[Problem], list[Problem]]:
    """Per gpu-class its sharing factor (shared classes only), the errors and the warnings (R38)."""
    by_class: dict[str, dict[int | None, list[NodeFacts]]] = defaultdict(lambda: defaultdict(list))
    for node, gpu_class in classed:
        if node.gpus > 0:
            by_class[gpu_class][sharing_factor(node)].append(node)
    factors: dict[str, int] = {}
    errors, warnings = [], []
    for gpu_class, groups in sorted(by_class.items()):
        if None in groups:
            errors.append(_unknown(gpu_class, groups[None][0]))
        elif len(groups) > 1:
            errors.append(_mixed(gpu_class, groups))
        elif (factor := next(iter(groups))) is not None and factor > 1:
            factors[gpu_class] = factor
            warnings.append(_shared(gpu_class, factor, groups[factor]))
    return factors, errors, warnings


def _described(factor: int | None) -> str:
    return "whole GPUs" if factor == 1 else f"shared x{factor}"


def _mixed(gpu_class: str, groups: Mapping[int | None, list[NodeFacts]]) -> Problem:
    parts = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0] or 0))
    described = "; ".join(
        f"{_described(f)}: {', '.join(sorted(n.name for n in nodes))}" for f, nodes in parts
    )
    odd = min(parts[1][1], key=lambda n: n.name)
    return _where(odd).problem(
        "R38",
        f"gpu-class {gpu_class} mixes shared and whole GPUs ({described}): one flavor cannot mean two units",
        "give the shared nodes a gpu-class of their own (an extraNodeLabelRules entry matching "
        f"{PRODUCT} …-SHARED), or share all of the class's nodes alike",
    )


def _unknown(gpu_class: str, node: NodeFacts) -> Problem:
    return _where(node).problem(
        "R38",
        f"node {node.name} (gpu-class {gpu_class}) has shared GPUs ({PRODUCT} "
        f"{node.labels.get(PRODUCT)}) but neither {REPLICAS} nor {COUNT} says how many are physical",
        f"export the node as GPU feature discovery labels it ({REPLICAS}, {COUNT})",
    )


def _shared(gpu_class: str, factor: int, nodes: list[NodeFacts]) -> Problem:
    advertised = sum(n.gpus for n in nodes)
    physical = sum(n.gpus // factor for n in nodes)
    first = min(nodes, key=lambda n: n.name)
    return (
        _where(first)
        .problem(
            "R38",
            f"gpu-class {gpu_class}: GPUs are shared (x{factor}, {REPLICAS}): its GPU quota counts the "
            f"{advertised} GPUs the nodes advertise, {physical} physical",
            "a pod's nvidia.com/gpu: 1 is a time slice here, not a whole GPU; the lock records the factor",
        )
        .as_warning()
    )


def uncounted_gpus(nodes: Iterable[NodeFacts]) -> list[Problem]:
    """R40: GPU capacity none of which is allocatable, and GPU-like resources no flavor covers."""
    found = []
    for node in nodes:
        capacity = node.capacity.get(GPU)
        if capacity is not None and capacity.value.numerator > 0 and node.gpus == 0:  # an int test
            found.append(
                node.at("capacity", GPU)
                .problem(
                    "R40",
                    f"node {node.name} has {GPU} capacity {capacity} but none allocatable: it counts 0 GPUs",
                    "the device plugin reports its GPUs unhealthy or not ready: check the node, "
                    "then import again",
                )
                .as_warning()
            )
        found += _unsupported(node)
    return found


def _unsupported(node: NodeFacts) -> list[Problem]:
    found = []
    for field, resources in (("allocatable", node.allocatable), ("capacity", node.capacity)):
        if _COUNTED.issuperset(resources):
            continue  # issue 36: names seen before and counted (cpu, memory, nvidia.com/gpu, ...)
        named = sorted((r, q) for r, q in resources.items() if _uncounted(r))
        _COUNTED.update(r for r in resources if not _uncounted(r))
        for resource, quantity in named:
            if quantity.value.numerator <= 0:
                continue
            if field == "capacity" and resource in node.allocatable:
                continue  # named once, at allocatable
            found.append(
                node.at(field, resource)
                .problem(
                    "R40",
                    f"node {node.name} advertises {resource} {quantity}, a GPU-like resource taugen "
                    f"does not count (only {GPU} gets a flavor and quota)",
                    "work that requests it is not placed through taugen's queues; "
                    f"if the node has NVIDIA GPUs, install the NVIDIA device plugin so it advertises {GPU}",
                )
                .as_warning()
            )
    return found


_COUNTED: set[str] = set()  # resource names that are no uncounted GPU: a fleet repeats a few


def _uncounted(resource: str) -> bool:
    return resource in UNCOUNTED or resource.startswith(UNCOUNTED_PREFIXES)
