"""The Run JSON Schema (generated from taugen.models.run): the repository's run files validate
against it, and it rejects what the model rejects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from taugen.models.run import Run

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "schemas" / "run.schema.json"
RUN_FILES = sorted(
    [*(REPO / "examples" / "runs").glob("*.yaml"), *(REPO / "tests/cases/runs/render").glob("*.yaml")]
)


def _errors(doc: Any) -> list[str]:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    return [e.message for e in validator.iter_errors(doc)]


def test_there_are_run_files() -> None:
    assert len([p for p in RUN_FILES if p.parent.name == "runs"]) >= 2


@pytest.mark.parametrize("path", RUN_FILES, ids=[p.relative_to(REPO).as_posix() for p in RUN_FILES])
def test_run_files_validate(path: Path) -> None:
    doc = yaml.safe_load(path.read_text())
    assert _errors(doc) == []
    Run.model_validate(doc)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"launcher": "mpirun"}, "'mpirun' is not one of"),
        ({"workers": 0}, "less than the minimum of 1"),
        ({"policy": {"topology": "same-rack"}}, "'same-rack' is not valid"),
        ({"gpus": 8}, "Additional properties are not allowed"),
        ({"command": []}, "should be non-empty"),
    ],
)
def test_invalid_runs_are_rejected_by_schema_and_model(change: dict[str, Any], expected: str) -> None:
    doc = yaml.safe_load((REPO / "examples" / "runs" / "llama-pretrain.yaml").read_text()) | change
    assert any(expected in e for e in _errors(doc)), _errors(doc)
    with pytest.raises(ValidationError):
        Run.model_validate(doc)
