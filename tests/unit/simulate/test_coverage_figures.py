"""Issue 24: the coverage docs/simulate.md's table and the README state are the vectors' own
counts (every expressible case passes: test_upstream_vectors.py, test_schedule_vectors.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.support import schedule_vectors, upstream_vectors

REPO = Path(__file__).resolve().parents[3]
ROW = re.compile(r"^\| `(Test\w+)`[^|]*\| (\d+)[^|]*\| (\d+) \| (\d+) \|$", re.M)
README = re.compile(r"\*\*Simulation checked against Kueue's own tests:\*\* (\d+) cases")


def _counts() -> dict[str, tuple[int, int]]:
    cases = [*upstream_vectors.load_cases(), *schedule_vectors.load_cases()]
    total = Counter(c["name"].split("/", 1)[0] for c in cases)
    expressible = Counter(c["name"].split("/", 1)[0] for c in cases if "outOfScope" not in c)
    return {test: (total[test], expressible[test]) for test in total}


def test_the_docs_table_is_the_vectors_counts() -> None:
    text = (REPO / "docs" / "simulate.md").read_text(encoding="utf-8")
    rows = {test: (int(n), int(e), int(p)) for test, n, e, p in ROW.findall(text)}
    assert rows == {test: (n, e, e) for test, (n, e) in _counts().items()}


def test_the_readme_states_the_cases_that_pass() -> None:
    found = README.search((REPO / "README.md").read_text(encoding="utf-8"))
    assert found is not None
    assert int(found.group(1)) == sum(e for _, e in _counts().values()) == 120
