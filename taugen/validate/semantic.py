"""Rules across objects that no schema can say (each finding names its rule id)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taugen.api.kai import KAI_TOPOLOGY_API
from taugen.compile.nodelabels.base import NODES_DIR
from taugen.core.quantity import Quantity, QuantityError
from taugen.resolve.labels import HOSTNAME
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource

KUEUE = "kueue.x-k8s.io/"
ADMIT_ALL = "tau.azure.com/admit-all-namespaces"  # opt-in for namespaceSelector: {}


class Tree:
    """The resources of one validation, indexed by kind."""

    def __init__(self, resources: list[Resource], carried: frozenset[str] = frozenset()) -> None:
        self.resources = [r for r in resources if isinstance(r.obj, dict)]
        self.carried = carried  # the gpu-classes of the vouched Nodes, which are not among them
        self._by_kind: dict[str, list[Resource]] = {}
        self.memo: dict[str, Any] = {}  # what several rules read of 100,000 Nodes, found once (issue 36)
        for resource in self.resources:
            self._by_kind.setdefault(resource.kind, []).append(resource)

    def of(self, kind: str, kueue: bool = True) -> list[Resource]:
        found = self._by_kind.get(kind, [])
        return [r for r in found if str(r.obj.get("apiVersion", "")).startswith(KUEUE)] if kueue else found

    def names(self, kind: str) -> set[str]:
        return {r.name for r in self.of(kind)}


def cluster_folder(resource: Resource) -> Path:
    return folder_of(resource.file)


def folder_of(path: Path) -> Path:
    """The cluster folder of a file: above nodes/ (nodes/<class>/<domain>.yaml,
    nodelabels/base.py), else its folder (out/<cluster>/clusterqueue.yaml)."""
    for folder in path.parents:
        if folder.name == NODES_DIR:
            return folder.parent
    return path.parent


def by_cluster(tree: Tree, kind: str, api_version: str | None = None) -> dict[Path, list[Resource]]:
    """The resources of a kind per cluster folder (of any apiVersion, or of the one given): a
    Queue, Topology or Cohort is one cluster's, and two clusters validated together never
    satisfy, nor contradict, each other's (issue 34)."""
    found: dict[Path, list[Resource]] = defaultdict(list)
    folders: dict[Path, Path] = {}  # file -> its cluster folder: a Node file holds 2,000 Nodes
    for resource in tree.of(kind, kueue=False):
        if api_version is None or resource.obj.get("apiVersion") == api_version:
            folder = folders.get(resource.file)
            if folder is None:
                folder = folders[resource.file] = cluster_folder(resource)
            found[folder].append(resource)
    return found


def map_of(value: Any) -> dict[str, Any]:
    """A mapping, or {} for anything else: the schema reports a badly shaped object."""
    return value if isinstance(value, dict) else {}


def spec_of(resource: Resource) -> dict[str, Any]:
    """The object's spec, or {} (the rules read trees that may be malformed)."""
    return map_of(resource.obj.get("spec"))


def meta_of(resource: Resource, field: str) -> dict[str, Any]:
    """metadata.<field> (labels, annotations) as a mapping, or {}."""
    return map_of(map_of(resource.obj.get("metadata")).get(field))


def list_of(value: Any) -> list[Any]:
    """A list, or [] for anything else."""
    return value if isinstance(value, list) else []


def local_queue_targets(tree: Tree) -> Iterator[Finding]:
    queues = tree.names("ClusterQueue")
    for lq in tree.of("LocalQueue"):
        target = spec_of(lq).get("clusterQueue")
        if str(target) not in queues:  # a value that is no string (the schema says so) names none
            yield finding(
                lq,
                ["spec", "clusterQueue"],
                "localqueue-clusterqueue",
                f"ClusterQueue {target!r} is not in the tree",
                "add it, or point at one that is",
            )


def groups_of(cq: Resource) -> Iterator[tuple[int, dict[str, Any]]]:
    """(index, group) for every well-formed resource group of a ClusterQueue."""
    for g, group in enumerate(list_of(spec_of(cq).get("resourceGroups"))):
        if isinstance(group, dict):
            yield g, group


def flavors_of(group: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(index, flavor) for every well-formed flavor of a resource group."""
    for f, flavor in enumerate(list_of(group.get("flavors"))):
        if isinstance(flavor, dict):
            yield f, flavor


def cluster_queue_flavors(tree: Tree) -> Iterator[Finding]:
    flavors = tree.names("ResourceFlavor")
    for cq in tree.of("ClusterQueue"):
        for g, group in groups_of(cq):
            for f, flavor in flavors_of(group):
                if flavor.get("name") not in flavors:
                    yield finding(
                        cq,
                        ["spec", "resourceGroups", g, "flavors", f, "name"],
                        "clusterqueue-flavor",
                        f"ResourceFlavor {flavor.get('name')!r} is not in the tree",
                        "add the ResourceFlavor, or remove the flavor from the queue",
                    )


def flavor_topologies(tree: Tree) -> Iterator[Finding]:
    topologies = tree.names("Topology")
    for rf in tree.of("ResourceFlavor"):
        name = spec_of(rf).get("topologyName")
        if name is not None and str(name) not in topologies:
            yield finding(
                rf,
                ["spec", "topologyName"],
                "flavor-topology",
                f"Topology {name!r} is not in the tree",
                "add the Topology or fix the name",
            )


def covered_resources(tree: Tree) -> Iterator[Finding]:
    """A ClusterQueue's or Cohort's flavors list the covered resources (the CRDs' CEL rule asks
    only for as many; Kueue's webhook for the same names, in order)."""
    for owner in (*tree.of("ClusterQueue"), *tree.of("Cohort")):
        for g, group in groups_of(owner):
            covered = list_of(group.get("coveredResources"))
            for f, flavor in flavors_of(group):
                listed = [r.get("name") for r in list_of(flavor.get("resources")) if isinstance(r, dict)]
                if listed != covered:
                    yield finding(
                        owner,
                        ["spec", "resourceGroups", g, "flavors", f, "resources"],
                        "covered-resources",
                        f"flavor {flavor.get('name')} lists {listed}, not the covered {covered}",
                        "list every covered resource, in the covered order",
                    )


def one_group(tree: Tree) -> Iterator[Finding]:
    for cq in tree.of("ClusterQueue"):
        seen: dict[str, int] = {}
        for g, group in groups_of(cq):
            for r, resource in enumerate(list_of(group.get("coveredResources"))):
                name = str(resource)  # the schema reports a value that is no string (a map)
                if name in seen:
                    yield finding(
                        cq,
                        ["spec", "resourceGroups", g, "coveredResources", r],
                        "one-group",
                        f"resource {name} is already covered by resource group {seen[name]}",
                        "cover each resource in one group only",
                    )
                seen.setdefault(name, g)
            for f, flavor in flavors_of(group):
                key = f"flavor:{flavor.get('name')}"
                if key in seen:
                    yield finding(
                        cq,
                        ["spec", "resourceGroups", g, "flavors", f, "name"],
                        "one-group",
                        f"flavor {flavor.get('name')} is already in resource group {seen[key]}",
                        "use each flavor in one group only",
                    )
                seen.setdefault(key, g)


def hostname_last(tree: Tree) -> Iterator[Finding]:
    """Kueue's and KAI's Topology CRDs both keep the hostname level last."""
    kai = [t for t in tree.of("Topology", kueue=False) if t.obj.get("apiVersion") == KAI_TOPOLOGY_API]
    for topology in (*tree.of("Topology"), *kai):
        levels = list_of(spec_of(topology).get("levels"))
        for i, level in enumerate(levels[:-1]):
            if isinstance(level, dict) and level.get("nodeLabel") == HOSTNAME:
                yield finding(
                    topology,
                    ["spec", "levels", i, "nodeLabel"],
                    "hostname-last",
                    f"{HOSTNAME} may only be the last level",
                    "move it to the end",
                )


def canonical_quantities(tree: Tree) -> Iterator[Finding]:
    for cq in tree.of("ClusterQueue"):
        for g, group in groups_of(cq):
            for f, flavor in flavors_of(group):
                for r, resource in enumerate(list_of(flavor.get("resources"))):
                    for field in ("nominalQuota", "borrowingLimit", "lendingLimit"):
                        value = resource.get(field) if isinstance(resource, dict) else None
                        if value is None or isinstance(value, bool):
                            continue
                        try:
                            canonical = Quantity.parse(value).canonical()
                        except QuantityError:
                            continue  # the schema reports it
                        if canonical != value:
                            yield finding(
                                cq,
                                ["spec", "resourceGroups", g, "flavors", f, "resources", r, field],
                                "canonical-quantity",
                                f"{field} {value!r} is not in canonical form ({canonical!r})",
                                "write it as the API server prints it, or Argo CD never settles",
                            )
