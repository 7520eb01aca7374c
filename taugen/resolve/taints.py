"""R39: the taints a cluster's GPU nodes should carry, against the taints the inventory shows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from taugen.core.errors import Problem
from taugen.load.inventory import GPU, NodeFacts, NodeTaint
from taugen.models.platform import GpuTaint, taint_text

REPELLING = ("NoSchedule", "NoExecute")
# Kubernetes' own condition taints (not-ready, unschedulable, …) come and go with the node's state.
CONDITION_PREFIX = "node.kubernetes.io/"


def is_gpu_node(node: NodeFacts) -> bool:
    capacity = node.capacity.get(GPU)
    return node.gpus > 0 or (capacity is not None and capacity.value > 0)


def matches(expected: GpuTaint, taint: NodeTaint) -> bool:
    """R39: a taint written with a value matches that value only; one written without a value
    matches its key with any value or none (render tolerates it with `operator: Exists`)."""
    return (
        expected.key == taint.key
        and expected.effect == taint.effect
        and (not expected.value or expected.value == taint.value)
    )


def taint_warnings(nodes: Iterable[NodeFacts], expected: Sequence[GpuTaint]) -> list[Problem]:
    """A GPU node lacking one of `expected`, or carrying another repelling taint (only when the
    inventory lists the node's taints: a native node without `taints:` says nothing)."""
    found: list[Problem] = []
    for node in nodes:
        if node.taints is None or not is_gpu_node(node):
            continue
        found += [_lacks(node, t) for t in expected if not any(matches(t, c) for c in node.taints)]
        found += [
            _other(node, t)
            for t in node.taints
            if t.effect in REPELLING
            and not any(matches(e, t) for e in expected)
            and not t.key.startswith(CONDITION_PREFIX)
        ]
    return found


def _lacks(node: NodeFacts, taint: GpuTaint) -> Problem:
    text = taint_text(taint)
    where = node.at("taints") if node.taints else node.at("name")
    return where.problem(
        "R39",
        f"GPU node {node.name} lacks the taint {text} (the cluster's gpuNodeTaints): "
        "pods that do not ask for a GPU may fill it",
        f"taint it (`kubectl taint nodes {node.name} {text}`), or set the cluster's gpuNodeTaints "
        "to the taints its GPU nodes carry",
    ).as_warning()


def _other(node: NodeFacts, taint: NodeTaint) -> Problem:
    return (
        node.at("taints")
        .problem(
            "R39",
            f"GPU node {node.name} carries the taint {taint.text}, which work rendered by taugen "
            "does not tolerate: it never runs there",
            "add it to the cluster's gpuNodeTaints, or remove it from the node",
        )
        .as_warning()
    )
