"""Why one pod fits on no node at all (issue 34 item 6): the one explanation preflight's
topology check and simulate's pending reason both give, so that a cause reads the same in both.

It looks at capacity in principle (allocatable, nothing running) and at the pod's filters, in
the order the scheduler applies them: a node that is not Ready, then one with a NoSchedule or
NoExecute taint the pod does not tolerate, then one outside its node selector, then one outside
its required node affinity, is left out and counted; on the nodes left, each resource whose
request per pod is above every node's allocatable is named with both numbers. When a node left
would hold one pod, there is nothing to explain (None): the nodes are busy or the domains small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from taugen.compile.slot import SLOT
from taugen.core.quantity import Quantity
from taugen.engines.placement.tree import PODS, Resources, count_in, wanted
from taugen.models.node_filters import (
    FilterTaint,
    FilterToleration,
    NodeRequirement,
    affinity_matches,
    untolerated,
)
from taugen.schedulers.kueue.units import MILLI

HEAD = "no node holds one pod"


@dataclass(frozen=True)
class HostOffer:
    """A node the pod might go to: allocatable in the placement core's integer units."""

    name: str
    ready: bool
    allocatable: Resources
    taints: tuple[FilterTaint, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PodFilters:
    tolerations: Sequence[FilterToleration] = ()
    selector: Sequence[tuple[str, str]] = ()
    affinity: Sequence[Sequence[NodeRequirement]] = ()  # required terms, ORed; (): none


def why_nowhere(
    per_pod: Resources, nodes: Sequence[HostOffer], filters: PodFilters = PodFilters()
) -> str | None:
    """Why none of `nodes` holds one pod of `per_pod` (the torchrun-host-slot aside: the tree
    advertises it, no inventory lists it); None when one of them does."""
    request = {r: v for r, v in per_pod.items() if r != SLOT}
    left, reasons = _filtered(nodes, filters)
    one = wanted({**request, PODS: request.get(PODS, 0) + 1})
    if any(count_in(one, n.allocatable)[0] > 0 for n in left):
        return None
    if not nodes:
        return f"{HEAD}: no node to place it on"
    if left:
        on = f"on the {len(left)} left, " if reasons else ""
        reasons.append(on + _short(one, left))
    return f"{HEAD}: {'; '.join(reasons)}"


def _filtered(nodes: Sequence[HostOffer], filters: PodFilters) -> tuple[list[HostOffer], list[str]]:
    """The nodes the pod may use, and how many were left out for each reason, in order."""
    not_ready = 0
    taints: dict[str, int] = {}
    selector = affinity = 0
    left = []
    for node in nodes:
        if not node.ready:
            not_ready += 1
        elif (taint := untolerated(node.taints, filters.tolerations)) is not None:
            taints[str(taint)] = taints.get(str(taint), 0) + 1
        elif filters.selector and not all(node.labels.get(k) == v for k, v in filters.selector):
            selector += 1
        elif filters.affinity and not affinity_matches(filters.affinity, node.labels):
            affinity += 1
        else:
            left.append(node)
    reasons = [f"{not_ready} not Ready"] if not_ready else []
    reasons += [f'{n} with the untolerated taint "{t}"' for t, n in sorted(taints.items())]
    reasons += [f"{selector} outside the pod's node selector"] if selector else []
    reasons += [f"{affinity} outside the run's node affinity"] if affinity else []
    return left, reasons


def _short(request: tuple[tuple[str, int], ...], nodes: Sequence[HostOffer]) -> str:
    """The resources whose request is above every node's allocatable, with both numbers (a
    node that does not list `pods` sets no pod limit)."""
    above = []
    for resource, amount in request:
        unlisted = amount if resource == PODS else 0
        most = max(n.allocatable.get(resource, unlisted) for n in nodes)
        if amount > most:
            above.append(
                f"{resource} {shown(resource, amount)} per pod is above every node's "
                f"allocatable (at most {shown(resource, most)})"
            )
    if above:
        return "; ".join(above)
    asked = ", ".join(f"{r} {shown(r, v)}" for r, v in request if r != PODS)
    return f"no node has room for all of {asked} per pod at once"


def shown(resource: str, amount: int) -> str:
    """An amount in the core's units as a quantity: cpu 1500 -> 1500m, memory in Gi when whole."""
    if resource in MILLI:
        return str(amount // 1000) if amount % 1000 == 0 else f"{amount}m"
    binary = amount >= 1024 and amount % 1024 == 0
    return Quantity(Fraction(amount), "BinarySI" if binary else "DecimalSI").canonical()
