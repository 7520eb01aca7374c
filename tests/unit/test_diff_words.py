"""Headline words and risk rules at their edges (the case corpus covers the common paths)."""

from __future__ import annotations

from typing import Any

import pytest

from taugen.engines.changes.changes import FieldChange, ObjectChange, field_changes
from taugen.engines.changes.normalize import normal
from taugen.engines.changes.objects import Identity
from taugen.engines.changes.risks import field_risks
from taugen.engines.changes.words import describe, field_headline, show

CQ = Identity("", "ClusterQueue", "", "taugrid", "kueue.x-k8s.io/v1beta2")
QUOTA = ("spec", "resourceGroups", 0, "flavors", "taugrid-h200-141gb", "resources", "memory")


def quota_change(old: Any, new: Any, field: str = "nominalQuota", action: str = "changed") -> list[str]:
    change = FieldChange((*QUOTA, field), action, old, new)  # type: ignore[arg-type]
    return [r.id for r in field_risks(ObjectChange(CQ, "change", {}, {}, (change,)), change, frozenset())]


@pytest.mark.parametrize(
    ("old", "new", "risks"),
    [
        ("100Ti", "90Ti", ["capacity"]),
        ("1Ti", "1024Gi", []),  # the same amount, written another way
        ("100k", "100001", []),
        ("8", 4, ["capacity"]),
        ("8", "eight", []),  # not a quantity: not judged a decrease
    ],
)
def test_a_decrease_is_judged_on_quantities(old: Any, new: Any, risks: list[str]) -> None:
    assert quota_change(old, new) == risks


def test_dropping_a_borrowing_limit_lends_more_and_is_no_loss() -> None:
    assert quota_change("8", None, "borrowingLimit", "removed") == []
    assert quota_change("8", "4", "borrowingLimit") == ["capacity"]
    assert quota_change("8", "4", "lendingLimit") == []


def test_values_are_shown_short_and_unambiguous() -> None:
    digest = "sha256:" + "ab" * 32
    assert show(digest) == "sha256:abababababab…"
    assert show("two words") == '"two words"'
    assert show(True) == "true"
    assert show(None) == "(none)"
    assert show(frozenset({"b", "a"})) == "a, b"
    assert show("x" * 100) == "x" * 71 + "…"


def test_fields_without_domain_words_are_named_by_their_path() -> None:
    assert describe("ClusterQueue", ("spec", "admissionChecksStrategy", "rules", 1)) == (
        "admissionChecksStrategy.rules[1]"
    )
    assert describe("Cohort", ("metadata", "labels", "team")) == "label team"
    assert describe("Node", ("metadata", "labels", "tau.azure.com/site")) == "site"
    assert describe("Pod", ()) == "object"


def test_items_that_share_a_name_compare_as_a_set_not_a_map() -> None:
    doubled = {"spec": {"things": [{"name": "a", "v": 1}, {"name": "a", "v": 2}]}}
    assert isinstance(normal(doubled)["spec"]["things"], frozenset)


def test_a_new_map_of_labels_is_spelled_out() -> None:
    old: dict[str, Any] = {"kind": "ResourceFlavor", "metadata": {"name": "f"}, "spec": {}}
    new = {**old, "spec": {"nodeLabels": {"a": "1", "b": "2"}}}
    [change] = field_changes("ResourceFlavor", old, new)
    assert field_headline("ResourceFlavor", change) == "nodeLabels added (a=1, b=2)"


def test_a_change_of_type_alone_says_so() -> None:
    change = FieldChange(("value",), "changed", 1000, "1000")
    assert field_headline("PriorityClass", change) == "value 1000 (int) → 1000 (str)"
