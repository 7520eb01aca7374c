"""The project render and preflight tests run against: tests/cases/runs/project, built in a copy."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from taugen.commands.build import BuildOptions, build
from taugen.engines.runs.resolution import RunContext, resolve_run
from tests.support.helpers import write_yaml

CASES = Path(__file__).resolve().parents[1] / "cases" / "runs"
PROJECT = CASES / "project"
RENDER_CASES = CASES / "render"


def build_lab(dest: Path) -> Path:
    """Copy the project into dest, build it there; returns its project file."""
    shutil.copytree(PROJECT, dest, dirs_exist_ok=True)
    build(BuildOptions(project_file=dest / "taugen.yaml"))
    return dest / "taugen.yaml"


def run_doc(profile: str, workers: int = 1, launcher: str = "none", **fields: Any) -> dict[str, Any]:
    """A Run document (team-a, 8 H200-sized GPUs per worker unless `resources` is given)."""
    doc: dict[str, Any] = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Run",
        "metadata": {"name": fields.pop("name", "job"), "namespace": fields.pop("namespace", "team-a")},
        "profile": profile,
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8, "cpu": "90", "memory": "1600Gi"},
        "launcher": launcher,
        "image": "ghcr.io/example/train:1.0",
        "command": ["python", "train.py"],
    }
    doc.update(fields)
    return doc


def context_of(project: Path, doc: dict[str, Any], name: str = "run.yaml") -> RunContext:
    """Write the run beside the project and resolve it."""
    return resolve_run(write_yaml(project.parent / "runs" / name, doc), project)


def objects_of(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d is not None]
