"""T8: the quota and classical preemption core reproduces every case recorded from Kueue
v0.19.2's own preemption and scheduler tests (tests/data/preemption-vectors.yaml)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.preemption_vectors import load_vectors, run_vector

SETS, VECTORS = load_vectors()


def test_enough_vectors_are_recorded() -> None:
    assert len(VECTORS) >= 20
    assert len({v["name"] for v in VECTORS}) == len(VECTORS)


@pytest.mark.parametrize("case", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(case: dict[str, Any]) -> None:
    assert run_vector(case, SETS) == case["expected"]
