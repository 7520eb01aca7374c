"""Kueue's constraints on a cohort's queues (SPEC §10), which no single object's schema can say."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource
from taugen.validate.semantic import KUEUE, Tree, by_cluster, flavors_of, groups_of, list_of, spec_of


def _shape(cq: Resource) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    return [
        (tuple(list_of(group.get("coveredResources"))), tuple(f.get("name") for _, f in flavors_of(group)))
        for _, group in groups_of(cq)
    ]


def cohort_shapes(tree: Tree) -> Iterator[Finding]:
    """T2/T3: the queues of a cohort cover the same resources in the same resource groups, with
    the same flavors: Kueue lends only [flavor, resource] pairs both queues list. A cohort is
    one cluster's: the queues are grouped per cluster folder, so that two clusters' Cohorts
    of one name (each `taugrid`) with other GPU classes are two cohorts (issue 34)."""
    cohorts: dict[tuple[Path, str], list[Resource]] = {}
    for folder, queues in sorted(by_cluster(tree, "ClusterQueue").items()):
        for cq in queues:
            kueue = str(cq.obj.get("apiVersion", "")).startswith(KUEUE)
            if kueue and isinstance(name := spec_of(cq).get("cohortName"), str) and name:
                cohorts.setdefault((folder, name), []).append(cq)
    for (_, name), queues in sorted(cohorts.items()):
        first, *rest = sorted(queues, key=lambda r: r.name)
        for cq in rest:
            if _shape(cq) != _shape(first):
                yield finding(
                    cq,
                    ["spec", "resourceGroups"],
                    "cohort-shape",
                    f"the resource groups differ from ClusterQueue {first.name}'s in cohort {name} "
                    f"({_shape(cq)} against {_shape(first)})",
                    "give every queue of the cohort the same covered resources and flavors per group",
                )
