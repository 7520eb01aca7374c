"""Kueue's limits, priority pairs and namespace selectors (rule ids in each finding)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from taugen.validate.findings import Finding, finding
from taugen.validate.semantic import ADMIT_ALL, Tree, flavors_of, groups_of, meta_of, spec_of

# Kueue v1beta2 API limits (CRD maxItems / maxProperties, and the names Kueue puts in labels).
MAX_GROUPS, MAX_COVERED, MAX_FLAVORS, MAX_RESOURCES = 16, 64, 64, 64
MAX_FLAVOR_ITEMS = 8  # nodeLabels, nodeTaints, tolerations
MAX_NAME, MAX_LABEL_NAME = 253, 63


def limits(tree: Tree) -> Iterator[Finding]:
    for cq in tree.of("ClusterQueue"):
        yield from _over(cq, ["spec", "resourceGroups"], MAX_GROUPS, "resource groups")
        for g, group in groups_of(cq):
            base = ["spec", "resourceGroups", g]
            yield from _over(cq, [*base, "coveredResources"], MAX_COVERED, "covered resources")
            yield from _over(cq, [*base, "flavors"], MAX_FLAVORS, "flavors in a resource group")
            for f, _ in flavors_of(group):
                yield from _over(
                    cq, [*base, "flavors", f, "resources"], MAX_RESOURCES, "resources in a flavor"
                )
    for rf in tree.of("ResourceFlavor"):
        for field in ("nodeLabels", "nodeTaints", "tolerations"):
            yield from _over(rf, ["spec", field], MAX_FLAVOR_ITEMS, field)
    for resource in tree.resources:
        yield from _name_limit(resource)


def _over(resource: Any, loc: list[Any], limit: int, what: str) -> Iterator[Finding]:
    node: Any = resource.obj
    for step in loc:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return
    if isinstance(node, list | dict) and len(node) > limit:
        yield finding(
            resource,
            loc,
            "limits",
            f"{len(node)} {what}; Kueue allows at most {limit}",
            "split or merge so the object stays within Kueue's limits",
        )


def _name_limit(resource: Any) -> Iterator[Finding]:
    short = resource.kind in ("LocalQueue", "PriorityClass", "WorkloadPriorityClass")
    limit = MAX_LABEL_NAME if short else MAX_NAME
    if len(resource.name) > limit:
        yield finding(
            resource,
            ["metadata", "name"],
            "limits",
            f"name is {len(resource.name)} characters; {resource.kind} names are at most {limit}",
            "Kueue copies this name into label values" if short else "shorten the name",
        )


def priority_pairs(tree: Tree) -> Iterator[Finding]:
    pods = {r.name: r for r in tree.of("PriorityClass", kueue=False)}
    workloads = {r.name: r for r in tree.of("WorkloadPriorityClass")}
    for name, wpc in sorted(workloads.items()):
        pc = pods.get(name)
        if pc is None:
            yield finding(
                wpc,
                ["metadata", "name"],
                "priority-pairs",
                f"no PriorityClass {name} pairs this WorkloadPriorityClass",
                "add the PriorityClass with the same value",
            )
        elif pc.obj.get("value") != wpc.obj.get("value"):
            yield finding(
                wpc,
                ["value"],
                "priority-pairs",
                f"value {wpc.obj.get('value')} differs from PriorityClass {name}'s {pc.obj.get('value')}",
                "give the pair the same value",
            )
    for name, pc in sorted(pods.items()):
        managed = meta_of(pc, "labels").get("app.kubernetes.io/managed-by")
        if managed == "taugen" and name not in workloads and workloads:
            yield finding(
                pc,
                ["metadata", "name"],
                "priority-pairs",
                f"no WorkloadPriorityClass {name} pairs this PriorityClass",
                "add the WorkloadPriorityClass with the same value",
            )


def namespace_selectors(tree: Tree) -> Iterator[Finding]:
    for cq in tree.of("ClusterQueue"):
        spec = spec_of(cq)
        selector = spec.get("namespaceSelector")
        if selector is None:
            yield finding(
                cq,
                ["spec"] if "namespaceSelector" not in spec else ["spec", "namespaceSelector"],
                "namespace-selector",
                f"namespaceSelector is {'null' if 'namespaceSelector' in spec else 'absent'}: "
                "the queue admits no namespace",
                "select the tenant namespaces, e.g. kubernetes.io/metadata.name In [...]",
            )
        elif selector == {} and meta_of(cq, "annotations").get(ADMIT_ALL) != "true":
            yield finding(
                cq,
                ["spec", "namespaceSelector"],
                "namespace-selector",
                "namespaceSelector {} admits every namespace",
                f'select the tenants, or annotate the ClusterQueue {ADMIT_ALL}: "true"',
            )
