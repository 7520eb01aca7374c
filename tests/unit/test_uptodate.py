"""The no-op shortcut (issue 6, taugen/uptodate.py): nothing compiled when nothing changed,
and everything compiled the moment any byte taugen reads, or taugen itself, changes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import taugen.build
import taugen.uptodate
from taugen.tree import staging_dir
from tests.helpers import gpu_node, inventory, snapshot
from tests.unit._support import NOW, problems_of, rules_of, run_build, write_project


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The clusters the build resolved, in order: empty when the shortcut answered."""
    seen: list[str] = []
    real = taugen.build.resolve  # type: ignore[attr-defined]

    def spy(inputs: Any) -> Any:
        seen.append(inputs.cluster.name)
        return real(inputs)

    monkeypatch.setattr(taugen.build, "resolve", spy)
    return seen


def _built(tmp_path: Path, **fields: Any) -> Path:
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1")]), **fields)
    assert run_build(project).written == ("c1", "taugen.lock")
    return project


def test_nothing_changed_compiles_nothing_and_touches_nothing(tmp_path: Path, compiles: list[str]) -> None:
    project = _built(tmp_path)
    compiles.clear()
    before = snapshot(tmp_path)
    assert run_build(project).written == ()
    assert run_build(project, check=True).differences == ()
    assert compiles == []
    assert snapshot(tmp_path) == before


def test_a_changed_input_byte_compiles_again(tmp_path: Path, compiles: list[str]) -> None:
    project = _built(tmp_path)
    compiles.clear()
    inventory_file = tmp_path / "inventory.yaml"
    inventory_file.write_text(inventory_file.read_text() + "# a comment changes no fact\n")
    assert run_build(project, check=True).differences == ()  # the tree and the lock's facts hold
    assert run_build(project).written == ("taugen.lock",)  # only the cache key moves
    assert compiles == ["c1", "c1"]


def test_a_changed_taugen_compiles_again(
    tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _built(tmp_path)
    compiles.clear()
    monkeypatch.setattr(taugen.uptodate, "_compiler_digest", lambda: "another taugen")
    assert run_build(project, check=True).differences == ()
    assert compiles == ["c1"]


def test_an_edited_output_file_is_found(tmp_path: Path, compiles: list[str]) -> None:
    project = _built(tmp_path)
    flavors = tmp_path / "out" / "c1" / "resourceflavors.yaml"
    flavors.write_text(flavors.read_text() + "# edited by hand\n")
    differences = run_build(project, check=True).differences
    assert differences and all("resourceflavors.yaml" in line for line in differences)


def test_an_inventory_past_max_age_is_refused_even_when_nothing_changed(tmp_path: Path) -> None:
    """R31 depends on the clock, not only on the bytes: the shortcut must not hide it."""
    project = _built(tmp_path, maxInventoryAge="2h")
    later = NOW + timedelta(hours=3)
    assert rules_of(problems_of(lambda: run_build(project, now=later))) == ["R31"]


def test_a_staging_folder_left_by_a_crash_takes_the_full_path(tmp_path: Path, compiles: list[str]) -> None:
    project = _built(tmp_path)
    compiles.clear()
    staging_dir(tmp_path / "out").mkdir()
    run_build(project)
    assert compiles == ["c1"]
