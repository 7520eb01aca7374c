"""`taugen report` through the CLI (issue 12): one file written, or nothing and exit 2."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import write_project


def test_report_writes_one_page(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    out = tmp_path / "page.html"
    result = run("report", "-c", project, "--out", out)
    assert (result.exit_code, result.output) == (0, f"wrote {out}\n")
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "inventory.yaml",
        "page.html",
        "profiles",
        "taugen.yaml",
    ]


def test_an_unknown_cluster_writes_nothing(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    result = run("report", "-c", project, "--cluster", "c9", "--out", tmp_path / "page.html")
    assert result.exit_code == 2
    assert "--cluster c9: the project has no such cluster" in result.output
    assert not (tmp_path / "page.html").exists()


def test_a_missing_workload_set_writes_nothing(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    result = run(
        "report", "-c", project, "--simulate", tmp_path / "none.yaml", "--out", tmp_path / "page.html"
    )
    assert result.exit_code == 2
    assert "none.yaml" in result.output
    assert not (tmp_path / "page.html").exists()


def test_an_out_file_in_a_missing_folder_is_bad_input(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    result = run("report", "-c", project, "--out", tmp_path / "no" / "page.html")
    assert (result.exit_code, result.output) == (
        2,
        f"error: --out {tmp_path}/no/page.html: no folder {tmp_path}/no to write it in\n",
    )
