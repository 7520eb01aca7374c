"""S3: the placement core against the cases of Kueue v0.19.2's own TAS tests
(tests/data/tas-upstream): every case taugen expresses gives Kueue's wanted assignment or
failure message, word for word; every other case names why it is out of scope."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.support.upstream_vectors import expected, load_cases, run_case

CASES = load_cases()
EXPRESSIBLE = [c for c in CASES if "outOfScope" not in c]


@pytest.mark.parametrize("case", EXPRESSIBLE, ids=[c["name"] for c in EXPRESSIBLE])
def test_upstream_case(case: dict[str, Any]) -> None:
    assert run_case(case) == expected(case)


def test_coverage_is_what_docs_say() -> None:
    """The figures of docs/simulate.md ("Kueue's own test cases"), per Go test."""
    total = Counter(c["name"].split("/", 1)[0] for c in CASES)
    expressible = Counter(c["name"].split("/", 1)[0] for c in EXPRESSIBLE)
    assert (dict(total), dict(expressible)) == (
        {"TestFindTopologyAssignments": 140, "TestFindTopologyAssignmentsMultiLayerReplacement": 6},
        {"TestFindTopologyAssignments": 94, "TestFindTopologyAssignmentsMultiLayerReplacement": 4},
    )


def test_names_are_unique_and_reasons_known() -> None:
    assert len({c["name"] for c in CASES}) == len(CASES)
    assert all(c.get("outOfScope", "x").strip() for c in CASES)
