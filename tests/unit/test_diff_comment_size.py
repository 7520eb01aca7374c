"""Issue 21: the pull-request comment fits (a GitHub comment holds 65,536 characters): the
summary and the risks first, then as many changes as fit, and how many more the artifact holds."""

from __future__ import annotations

from pathlib import Path

from taugen.commands.diff.markdown import ARTIFACT, LIMIT, markdown
from taugen.engines.changes.engine import DiffOptions, diff
from tests.conftest import REPO


def _first_import(tmp_path: Path) -> str:
    (tmp_path / "empty").mkdir()
    return str(tmp_path / "empty")


def test_a_large_change_is_cut_to_the_limit_with_the_summary_first(tmp_path: Path) -> None:
    result = diff(DiffOptions(_first_import(tmp_path), str(REPO / "out"), REPO))
    whole = markdown(result, limit=10**9)
    assert len(whole) > 3_000 and "more changes" not in whole
    cut = markdown(result, limit=3_000)
    assert len(cut) <= 3_000
    assert cut.splitlines()[:2] == whole.splitlines()[:2]  # the marker and the headline
    assert cut[: whole.index("<details")] == whole[: whole.index("<details")]  # summary untouched
    shown = sum(1 for line in cut.splitlines() if line.startswith("- `"))
    total = sum(1 for line in whole.splitlines() if line.startswith("- `"))
    assert f"**{total - shown} more changes**: see {ARTIFACT}." in cut
    assert cut.rstrip().endswith("</details>")


def test_the_default_limit_leaves_room_below_githubs(tmp_path: Path) -> None:
    assert LIMIT == 60_000 < 65_536
    result = diff(DiffOptions(_first_import(tmp_path), str(REPO / "out"), REPO))
    assert markdown(result) == markdown(result, limit=10**9)  # the example fits whole
