"""R52 (issue 35): `simulate --cycles N` runs at most N of Kueue's scheduling cycles and says
which runs the cycles left queued; a WorkloadSet time before year 1000 sorts and prints as time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import build_lab

LAB = Path(__file__).resolve().parents[1] / "cases" / "simulate" / "lab.yaml"
STOPPED = "not reached: the simulation stopped after 2 scheduling cycle(s)"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _answer(run: Run, *args: str | Path) -> dict[str, object]:
    result = run("simulate", *args, "-o", "json")
    assert result.exit_code == 0, result.output
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_cycles_stop_the_simulation_and_name_what_they_left_queued(run: Run, project: Path) -> None:
    """One ClusterQueue: a cycle takes one head (S2 order: big-4 by priority, then createdAt in
    UTC, island-3 at 09:30Z). Two cycles try big-4 and island-3; the rest are never reached."""
    found = _answer(run, LAB, "-c", project, "--cycles", "2")
    assert found["cycles"] == {
        "ran": 2,
        "limit": 2,
        "cutOff": ["team-a/train-3", "team-b/etl", "team-b/eval-1"],
    }
    runs = found["runs"]
    assert isinstance(runs, list)
    assert [(r["name"], r["status"], r["reason"]) for r in runs][1:] == [
        ("serve-2", "admitted", None),
        ("island-3", "admitted", None),
        ("train-3", "pending", STOPPED),
        ("etl", "pending", STOPPED),
        ("eval-1", "pending", STOPPED),
    ]
    text = run("simulate", LAB, "-c", project, "--cycles", "2").stdout.splitlines()
    assert (
        "  2 scheduling cycles (--cycles 2); still queued when they ran out: "
        "team-a/train-3, team-b/etl, team-b/eval-1"
    ) in text


def test_the_default_runs_until_nothing_changes_as_before(run: Run, project: Path) -> None:
    """No --cycles: every run is tried (lab.expected.json's answer), none is cut off; a limit
    above what is needed gives the same runs."""
    found = _answer(run, LAB, "-c", project)
    assert found["cycles"] == {"ran": 5, "limit": None, "cutOff": []}
    enough = _answer(run, LAB, "-c", project, "--cycles", "9")
    assert enough["cycles"] == {"ran": 5, "limit": 9, "cutOff": []}
    assert enough["runs"] == found["runs"]
    text = run("simulate", LAB, "-c", project).stdout.splitlines()
    assert "  5 scheduling cycles, until nothing more could change" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cycles", "0"], "Invalid value for '--cycles': 0 is not in the range x>=1."),
        (["--fleet", "--cycles", "2"], "--fleet simulates the project's manager and workers: drop"),
    ],
)
def test_cycles_must_be_a_count_and_one_cluster(
    run: Run, project: Path, args: list[str], message: str
) -> None:
    result = run("simulate", LAB, "-c", project, *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert message in result.stderr


def test_a_time_before_year_1000_sorts_first_and_prints(run: Run, project: Path, tmp_path: Path) -> None:
    """R52: `createdAt: 0999-…` made `simulate -o json` exit 3 (strftime wrote `999-…`, which
    fromisoformat refused) and sorted after 2026 (as text, "9" > "2"). Now train-3, created in
    999, is the first of the default tier, its createdAt printed as given; an admitted.at in 998
    (UTC-1) is read too."""
    doc = yaml.safe_load(LAB.read_text())
    doc["runs"][0]["createdAt"] = "0999-11-29T10:00:00Z"
    doc["runs"][1]["admitted"]["at"] = "0998-01-01T00:00:00-01:00"
    found = _answer(run, write_yaml(tmp_path / "old.yaml", doc), "-c", project)
    runs = found["runs"]
    assert isinstance(runs, list)
    assert [(r["name"], r["createdAt"]) for r in runs][:3] == [
        ("big-4", "2026-11-29T11:00:00Z"),
        ("train-3", "0999-11-29T10:00:00Z"),
        ("serve-2", "2026-11-29T09:00:00Z"),
    ]


def test_a_time_that_is_not_rfc3339_is_bad_input_at_its_position(
    run: Run, project: Path, tmp_path: Path
) -> None:
    doc = yaml.safe_load(LAB.read_text())
    doc["runs"][2]["createdAt"] = "0000-11-29T11:00:00Z"
    bad = write_yaml(tmp_path / "bad.yaml", doc)
    (line,) = [i for i, text in enumerate(bad.read_text().splitlines(), 1) if "0000-11-29" in text]
    result = run("simulate", bad, "-c", project)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{bad}:{line}:14: error: runs.2.createdAt: '0000-11-29T11:00:00Z' has year 0: RFC 3339 "
        "years here start at 1 [R52]\n"
        '  hint: write an RFC 3339 time in quotes, e.g. "2026-11-28T12:00:00Z"\n'
    )
