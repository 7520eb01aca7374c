"""diff's risks of issue 35's admission model at their edges (R47 fallback order, R51 the cohort
tree); the case corpus (tests/cases/diff/fallback-order, flavor-order, group-tree, group-parent)
covers the common paths, by risk id. Here: the reasons, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from taugen.engines.changes.changes import FieldAction, FieldChange, ObjectChange
from taugen.engines.changes.cohort_risks import swapped_pairs
from taugen.engines.changes.objects import Identity
from taugen.engines.changes.risks import Risk, field_risks

FLAVORS = ("spec", "resourceGroups", 0, "flavors")
CPU, H200, H100, A100 = "taugrid-default-cpu", "taugrid-h200-141gb", "taugrid-h100-80gb", "taugrid-a100-80gb"


def _risks(kind: str, path: tuple[Any, ...], action: FieldAction, old: Any, new: Any) -> tuple[Risk, ...]:
    ident = Identity("c1", kind, "", "taugrid-team-llm", "kueue.x-k8s.io/v1beta2")
    field = FieldChange(path, action, old, new)
    return field_risks(ObjectChange(ident, "change", {}, {}, (field,)), field, frozenset())


def test_r47_two_gpu_flavors_swapping_is_the_fallback_risk_naming_them() -> None:
    assert _risks("ClusterQueue", FLAVORS, "reordered", [CPU, H200, H100], [CPU, H100, H200]) == (
        Risk(
            "fallback",
            f"{H100} now before {H200}: a run that lists both classes (R47) now tries {H100} first",
        ),
    )


def test_r47_several_swapped_pairs_are_each_named_in_the_new_order() -> None:
    (risk,) = _risks("ClusterQueue", FLAVORS, "reordered", [CPU, H200, H100, A100], [CPU, A100, H100, H200])
    assert risk == Risk(
        "fallback",
        f"{A100} now before {H100}; {A100} now before {H200}; {H100} now before {H200}: a run that lists "
        "both classes (R47) now tries the one now before first",
    )


@pytest.mark.parametrize(
    ("old", "new", "pairs"),
    [
        (["a", "b", "c"], ["a", "b", "c"], []),
        (["a", "b"], ["b", "a"], [("b", "a")]),
        (["a", "b", "c"], ["c", "b", "d"], [("c", "b")]),  # a gone, d new: judged on b and c only
        (["a", "b", "c"], ["c", "a", "b"], [("c", "a"), ("c", "b")]),
    ],
)
def test_swapped_pairs_are_judged_on_the_items_both_orders_hold(
    old: list[str], new: list[str], pairs: list[tuple[str, str]]
) -> None:
    assert swapped_pairs(old, new) == pairs


@pytest.mark.parametrize(
    ("kind", "path", "action", "old", "new"),
    [
        ("Cohort", ("spec", "parentName"), "changed", "taugrid", "taugrid-org"),
        ("Cohort", ("spec", "parentName"), "added", None, "taugrid-org"),
        ("ClusterQueue", ("spec", "cohortName"), "changed", "taugrid-org", "taugrid-llm"),
    ],
)
def test_r51_moving_in_the_cohort_tree_is_a_capacity_risk(
    kind: str, path: tuple[str, ...], action: FieldAction, old: Any, new: Any
) -> None:
    assert _risks(kind, path, action, old, new) == (
        Risk(
            "capacity",
            f"the {kind} moves in the cohort tree (R51): what it may borrow, and who may reclaim from it, "
            "come from another cohort",
        ),
    )


def test_other_orders_and_names_are_not_these_risks() -> None:
    assert (
        _risks("Cohort", ("spec", "resourceGroups", 0, "flavors"), "reordered", [H200, H100], [H100, H200])
        == ()
    )
    assert (
        _risks("ClusterQueue", ("spec", "queueingStrategy"), "changed", "BestEffortFIFO", "StrictFIFO") == ()
    )
