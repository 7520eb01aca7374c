"""Issue 24: the coverage docs/simulate.md's table and the README state are the vectors' own
counts (every expressible case passes: test_upstream_vectors.py, test_schedule_vectors.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.support import schedule_vectors, upstream_vectors

REPO = Path(__file__).resolve().parents[3]
ROW = re.compile(r"^\| `(Test\w+)`[^|]*\| (\d+)[^|]*\| (\d+) \| (\d+) \|$", re.M)
README = re.compile(
    r"\*\*Simulation checked against Kueue's own tests:\*\* of the (\d+) cases .*?, "
    r"(\d+) are expressible and",
    re.S,
)
GROUPS = re.compile(r"Out of scope: (.*?)\(\[each", re.S)


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
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found, groups = README.search(text), GROUPS.search(text)
    assert found is not None and groups is not None
    counts = _counts().values()
    total, expressible = sum(n for n, _ in counts), sum(e for _, e in counts)
    assert (int(found.group(1)), int(found.group(2))) == (total, expressible) == (213, 120)
    # the out-of-scope groups the README names, "(48)" ... "and 4 single cases", add up to the rest
    text = groups.group(1)
    single = re.search(r"and (\d+) single cases", text)
    assert single is not None
    named = sum(int(n) for n in re.findall(r"\((\d+)\)", text)) + int(single.group(1))
    assert named == total - expressible
