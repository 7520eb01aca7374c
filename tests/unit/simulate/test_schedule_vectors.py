"""S2, S3: `taugen simulate`'s engine against the cases of Kueue v0.19.2's TestScheduleForTAS
(tests/data/tas-upstream/schedule-for-tas.yaml): every case simulate expresses admits the
workload Kueue admits, on the hosts of its TopologyAssignment, or leaves it pending with
Kueue's TAS message word for word; every other case names why it is out of scope."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.schedule_vectors import expected, load_cases, run_case, same_pending

CASES = load_cases()
EXPRESSIBLE = [c for c in CASES if "outOfScope" not in c]


@pytest.mark.parametrize("case", EXPRESSIBLE, ids=[c["name"] for c in EXPRESSIBLE])
def test_schedule_case(case: dict[str, Any]) -> None:
    got, want = run_case(case), expected(case)
    assert set(got) == set(want)
    several = {w["name"] for w in case["workloads"] if len(w["podSets"]) > 1}
    for key, result in want.items():
        if "pending" in result:
            assert "pending" in got[key], got[key]
            assert same_pending(got[key]["pending"], result["pending"], key in several), (got[key], result)
        else:
            assert got[key] == result


def test_coverage_is_what_docs_say() -> None:
    """The figures of docs/simulate.md ("Kueue's own test cases")."""
    assert (len(CASES), len(EXPRESSIBLE)) == (67, 22)
    assert len({c["name"] for c in CASES}) == len(CASES)
    assert all(c.get("outOfScope", "x").strip() for c in CASES)
