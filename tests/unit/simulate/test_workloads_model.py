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
