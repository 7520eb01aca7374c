"""Risks of issue 35's admission model on a queue's or a Cohort's field (SPEC R47, R51).

- R47: Kueue's flavor assigner tries a resource group's flavors in the ClusterQueue's order, so a
  run that lists several gpu classes (`gpu_class: [h200-141gb, h100-80gb]`) takes the first that
  fits (v0.19.2 flavorassigner.go, findFlavorForPodSets). Two flavors that swap places change
  which class such a run takes: the `fallback` risk, naming the pairs that swapped.
- R51: a Cohort's `parentName` or a ClusterQueue's `cohortName` says where in the cohort tree its
  quota is lent and borrowed: moving it changes what its subtree may borrow and who reclaims from
  it (Kueue's hierarchical cohorts), a `capacity` risk as a KAI queue's new parent is.

Rules return (risk id, reason); engines/changes/risks.py makes them Risks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from taugen.engines.changes.changes import FieldChange

_FLAVORS = ("spec", "resourceGroups")
_TREE = {"Cohort": ("spec", "parentName"), "ClusterQueue": ("spec", "cohortName")}


def cohort_risks(kind: str, field: FieldChange) -> Iterator[tuple[str, str]]:
    path = field.path
    if kind == "ClusterQueue" and field.action == "reordered" and path[:2] == _FLAVORS:
        swapped = swapped_pairs(field.old, field.new)
        if swapped:
            pairs = "; ".join(f"{a} now before {b}" for a, b in swapped)
            first = swapped[0][0] if len(swapped) == 1 else "the one now before"
            yield "fallback", f"{pairs}: a run that lists both classes (R47) now tries {first} first"
    if _TREE.get(kind) == path:
        yield (
            "capacity",
            (
                f"the {kind} moves in the cohort tree (R51): what it may borrow, and who may reclaim "
                "from it, come from another cohort"
            ),
        )


def swapped_pairs(old: Sequence[str], new: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of items both orders hold whose order differs, as (first now, second now), in the
    new order."""
    kept = set(old) & set(new)
    before = {name: i for i, name in enumerate(n for n in old if n in kept)}
    after = [n for n in new if n in kept]
    return [(a, b) for i, a in enumerate(after) for b in after[i + 1 :] if before[a] > before[b]]
