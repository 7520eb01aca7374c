"""S3: the placement core reproduces every recorded Kueue v0.19.2 TAS case, reasons included.

The cases live in ../shared/acceptance/tas-vectors.yaml; without that folder this skips.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.vectors import VECTORS, load_vectors, run_vector

CASES = load_vectors()

pytestmark = pytest.mark.skipif(not CASES, reason=f"no TAS vectors at {VECTORS} (needs ../shared)")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_vector(case: dict[str, Any]) -> None:
    assert run_vector(case) == case["expected"]
