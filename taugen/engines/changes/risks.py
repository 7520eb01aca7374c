"""Risk classes: what applying a change may do to a running cluster. The ids are stable."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from taugen.engines.changes.changes import FieldChange, ObjectChange
from taugen.engines.changes.cohort_risks import cohort_risks
from taugen.models.tiers import TAUGRID_TIERS, class_name
from taugen.schedulers.registry import schedulers

GPU_CLASS = "tau.azure.com/gpu-class"
LEVELS = ("tau.azure.com/site", "tau.azure.com/network-domain", "tau.azure.com/accelerator-domain")
_PRIORITY_KINDS = ("PriorityClass", "WorkloadPriorityClass")
_TAUGRID_CLASSES = frozenset(class_name(name) for name, _ in TAUGRID_TIERS)  # R20, R21: always there
# G6 (issue 32): the fields of an Application template that say what is deployed where, and the
# fields of a Flux Kustomization that do not (any other field may change what is applied)
_ARGO_SOURCE = frozenset({"source", "sources", "destination", "project"})
_FLUX_TIMING = frozenset(
    {"interval", "retryInterval", "timeout", "wait", "prune", "dependsOn", "healthCheckExprs", "suspend"}
)


@dataclass(frozen=True)
class RiskClass:
    id: str
    title: str
    explanation: str


CLASSES = (
    RiskClass(
        "rejected",
        "rejected by the API server",
        "the fields are immutable: delete and recreate the object (Argo CD: sync it once with "
        "`argocd.argoproj.io/sync-options: Force=true,Replace=true`; `Replace=true` alone is refused too)",
    ),
    RiskClass(
        "capacity",
        "capacity loss",
        "less quota, fewer slots, or a flavor, queue or tenant gone, or a queue moved in the cohort "
        "tree: work that fits today may wait or never be admitted",
    ),
    RiskClass(
        "placement",
        "placement change",
        "a node changes gpu-class or topology domain: running TAS workloads there may be evicted or stranded",
    ),
    RiskClass(
        "priority",
        "priority change",
        "a priority tier was added or removed, or its value changed (R50): preemption order changes, "
        "and new pods or workloads naming a removed class are refused",
    ),
    RiskClass(
        "source",
        "deployment source change",
        "Argo CD or Flux deploys from another repository, revision or path, or into another cluster: "
        "what then runs is whatever that source holds, which this diff does not show",
    ),
    RiskClass(
        "preemption",
        "preemption change",
        "a ClusterQueue's preemption policy changes (R48): workloads that were safe may be preempted, "
        "or a tenant may no longer reclaim its guarantee or borrow by preempting",
    ),
    RiskClass(
        "fallback",
        "fallback order change",
        "the queues' flavor order changes (R47): a run that lists several gpu classes tries them in the "
        "new order, so one that fell back to a class may now take another first, or the reverse",
    ),
    RiskClass(
        "held",
        "quota held above inventory",
        "R26 keeps a class's GPU quota at its high-water mark when nodes leave or turn NotReady: Kueue "
        "admits work for GPUs the cluster does not have, and it waits unplaced; once the nodes are gone "
        "for good, `taugen build --allow-quota-decrease` lowers it",
    ),
)
IDS = tuple(c.id for c in CLASSES)


@dataclass(frozen=True, order=True)
class Risk:
    id: str
    reason: str


def object_risks(change: ObjectChange) -> tuple[Risk, ...]:
    """Adding is never risky but for a priority tier's class (R50: its work preempts the tiers
    below it); removing a queue, flavor or class is. Removing a Node from Git changes nothing on
    the cluster (taugen's Nodes are never pruned)."""
    kind = change.ident.kind
    if change.action == "add" and kind in _PRIORITY_KINDS and change.ident.name not in _TAUGRID_CLASSES:
        return (Risk("priority", f"a new tier's {kind}: its work preempts lower tiers', waits for higher"),)
    if change.action != "remove":
        return ()
    if kind in ("ClusterQueue", "ResourceFlavor", "LocalQueue", "Topology", "Queue"):
        return (Risk("capacity", f"the {kind} is deleted"),)
    if kind in _PRIORITY_KINDS:
        return (Risk("priority", f"the {kind} is deleted"),)
    return ()


def field_risks(change: ObjectChange, field: FieldChange, levels: frozenset[str]) -> tuple[Risk, ...]:
    return tuple(sorted(set(_field_risks(change, field, levels))))


def _field_risks(change: ObjectChange, field: FieldChange, levels: frozenset[str]) -> Iterator[Risk]:
    # The CRD kinds' immutable fields are their CRDs' transition rules (engines/changes/transitions.py);
    # a PriorityClass is a built-in kind, whose rules live in the API server's code.
    kind, path = change.ident.kind, field.path
    if kind == "PriorityClass" and path in (("value",), ("preemptionPolicy",)):
        yield Risk("rejected", f"a PriorityClass's {path[0]} is immutable: Argo CD must replace it")
    if kind == "WorkloadPriorityClass" and path == ("value",):
        # Kueue: a changed value does not change the priority of workloads already created
        yield Risk("priority", "the value changes for new workloads; those already created keep the old one")
    elif kind == "PriorityClass" and path == ("value",):
        yield Risk("priority", "the value changes")
    if kind == "ClusterQueue" and path[:2] == ("spec", "preemption"):
        yield Risk("preemption", "who may preempt whom changes")
    if kind == "ClusterQueue" and path[:2] == ("spec", "flavorFungibility"):  # R47
        yield Risk("preemption", "whether a run preempts or borrows, or tries its next class first, changes")
    yield from (Risk(i, reason) for i, reason in cohort_risks(kind, field))  # R47, R51
    if kind == "Queue" and path == ("spec", "parentQueue"):
        yield Risk("capacity", "the queue moves to another parent: its share comes from that parent's quota")
    if any(s.capacity_lost(kind, path, field.action, field.old, field.new) for s in schedulers()):
        yield Risk("capacity", "less capacity")
    if kind == "Node" and _labels_touched(field) & (levels | {GPU_CLASS}):
        yield Risk("placement", "the node moves to another class or domain")
    if _redirects(change.ident.api_version, kind, field):
        yield Risk("source", f"{kind} {'.'.join(str(p) for p in path)} changes what is deployed, or where")


def _redirects(api_version: str, kind: str, field: FieldChange) -> bool:
    """A G6 object's change of repository, revision, path or destination (issue 32)."""
    path = field.path
    if kind == "ApplicationSet" and api_version.startswith("argoproj.io/"):
        if path[:3] == ("spec", "template", "spec"):
            return len(path) == 3 or path[3] in _ARGO_SOURCE
        # a generator's element added or removed whole is an Application more or less; its
        # path or cluster changing, or another generator, points one elsewhere
        whole = len(path) >= 2 and path[-2] == "elements" and field.action in ("added", "removed")
        return path[:2] == ("spec", "generators") and not whole
    if kind == "Kustomization" and api_version.startswith("kustomize.toolkit.fluxcd.io/"):
        return path[:1] == ("spec",) and (len(path) == 1 or path[1] not in _FLUX_TIMING)
    return False


def _labels_touched(field: FieldChange) -> set[str]:
    path = field.path
    if path[:2] != ("metadata", "labels"):
        return set()
    if len(path) > 2:
        return {str(path[2])}
    return {str(k) for side in (field.old, field.new) if isinstance(side, Mapping) for k in side}
