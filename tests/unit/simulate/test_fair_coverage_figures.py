"""R49: docs/simulate.md's table of Kueue's fair-sharing cases is the vectors' own counts
(every stated case passes: test_fair_preemption_vectors.py, test_fair_schedule_vectors.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.unit.simulate.fair_vectors import load

REPO = Path(__file__).resolve().parents[3]
ROW = re.compile(r"^\| `pkg/[\w/.]+` \| `(Test\w+)` \| (\d+) \| (\d+) \| (\d+) \|$", re.M)


def test_the_docs_table_is_the_fair_vectors_counts() -> None:
    cases = [*load("fair-preemption-vectors.yaml")[1], *load("fair-schedule-vectors.yaml")[1]]
    total = Counter(c["name"].split("/", 1)[0] for c in cases)
    stated = Counter(c["name"].split("/", 1)[0] for c in cases if "outOfScope" not in c)
    text = (REPO / "docs" / "simulate.md").read_text(encoding="utf-8")
    rows = {test: (int(n), int(s), int(p)) for test, n, s, p in ROW.findall(text)}
    assert rows == {test: (total[test], stated[test], stated[test]) for test in total}
    assert rows["TestScheduleForFairSharing"] == (22, 21, 21)
