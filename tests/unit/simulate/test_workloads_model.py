"""The WorkloadSet input (S1): the example validates against its model and committed schema;
mistakes are reported with their position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from taugen.core.errors import InputError
from taugen.engines.admission.workloads import load_workloads
from tests.support.helpers import write_yaml

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "simulate" / "eastus-prod.yaml"
SCHEMA = REPO / "schemas" / "workloadset.schema.json"


def test_example_is_valid_for_model_and_schema() -> None:
    loaded = load_workloads(EXAMPLE)
    assert [r.metadata.name for r in loaded.workloads.runs][:2] == ["llama-pretrain", "h200-sweep"]
    errors = list(
        Draft202012Validator(json.loads(SCHEMA.read_text())).iter_errors(yaml.safe_load(EXAMPLE.read_text()))
    )
    assert errors == []


def _run(**fields: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "metadata": {"name": "r1", "namespace": "team-a"},
        "createdAt": "2026-11-29T10:00:00Z",
        "profile": "h200-train",
        "workers": 2,
        "resources": {"nvidia.com/gpu": 8},
    }
    return doc | fields


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            {"kind": "WorkloadSet", "runs": [_run(admitted={"ranks": {"2": "x1"}})]},
            "admitted.ranks names 2, but the run has pods 0..1 [S1]",
        ),
        (
            {"kind": "WorkloadSet", "runs": [_run(createdAt="2026-11-29T10:00:00")]},
            "createdAt",
        ),
        (
            {"kind": "WorkloadSet", "runs": [_run(), _run()]},
            "two runs are named r1 [S1]",
        ),
        (
            {"kind": "WorkloadSet", "running": [{"node": "x1", "requests": {"cpu": "1"}, "rank": 0}]},
            "a running pod has a rank but no run [S1]",
        ),
    ],
    ids=["rank-out-of-range", "naive-time", "duplicate-name", "rank-without-run"],
)
def test_mistakes_are_reported_with_positions(tmp_path: Path, doc: dict[str, object], expected: str) -> None:
    path = write_yaml(tmp_path / "set.yaml", doc)
    with pytest.raises(InputError) as err:
        load_workloads(path)
    rendered = [p.render() for p in err.value.problems]
    assert len(rendered) == 1 and expected in rendered[0], rendered
    assert err.value.problems[0].line > 1


def test_timestamps_are_rfc3339_with_a_year_of_at_least_one(tmp_path: Path) -> None:
    """R52: every WorkloadSet time (createdAt, admitted.at) is refused at its position unless it
    is RFC 3339 with a year of at least 1 whose UTC time Python can hold; every one is reported."""
    runs = [
        _run(metadata={"name": "unix", "namespace": "team-a"}, createdAt=1700000000),
        _run(metadata={"name": "space", "namespace": "team-a"}, createdAt="2026-11-29 10:00:00Z"),
        _run(metadata={"name": "zero", "namespace": "team-a"}, createdAt="0000-01-01T00:00:00Z"),
        _run(metadata={"name": "east", "namespace": "team-a"}, createdAt="0001-01-01T00:00:00+01:00"),
        _run(
            metadata={"name": "plan", "namespace": "team-a"},
            admitted={"ranks": {"0": "x1"}, "at": "2026-11-29T10:00Z"},
        ),
        _run(metadata={"name": "old", "namespace": "team-a"}, createdAt="0999-11-29T09:00:00Z"),
    ]
    path = write_yaml(tmp_path / "set.yaml", {"kind": "WorkloadSet", "runs": runs})
    with pytest.raises(InputError) as err:
        load_workloads(path)
    lines = path.read_text().splitlines()
    hint = 'write an RFC 3339 time in quotes, e.g. "2026-11-28T12:00:00Z"'
    form = "is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss, a fraction, then Z or ±hh:mm)"
    assert [(p.line, p.col, p.rule, p.message, p.hint) for p in err.value.problems] == [
        (_line(lines, "1700000000"), 14, "R52", f"runs.0.createdAt: 1700000000 {form}", hint),
        (_line(lines, "2026-11-29 10"), 14, "R52", f"runs.1.createdAt: '2026-11-29 10:00:00Z' {form}", hint),
        (
            _line(lines, "0000-01-01"),
            14,
            "R52",
            "runs.2.createdAt: '0000-01-01T00:00:00Z' has year 0: RFC 3339 years here start at 1",
            hint,
        ),
        (
            _line(lines, "0001-01-01"),
            14,
            "R52",
            "runs.3.createdAt: 0001-01-01T00:00:00+01:00 is outside years 1 to 9999 once converted to UTC",
            hint,
        ),
        (_line(lines, "10:00Z"), 9, "R52", f"runs.4.admitted.at: '2026-11-29T10:00Z' {form}", hint),
    ]


def _line(lines: list[str], text: str) -> int:
    (found,) = [i for i, line in enumerate(lines, 1) if text in line]
    return found
