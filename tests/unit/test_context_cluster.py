"""Issue 18: every command sees a cluster's quota history as `taugen build` does (R26, R35)."""

from __future__ import annotations

import json
from pathlib import Path

from taugen.commands.inventory.show import summarize
from taugen.commands.report.command import ReportOptions, collect
from taugen.context.session import load_view
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import run_build, write_project

H200 = "h200-141gb"


def _lock_lost(tmp_path: Path) -> Path:
    """Built with two H200 hosts, then one left (the lock keeps 16 GPUs), then the lock was lost."""
    project = write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1")]))
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    run_build(project)
    (tmp_path / "taugen.lock").unlink()
    return project


def test_without_a_lock_the_marks_come_from_the_committed_queue(tmp_path: Path) -> None:
    view = load_view(_lock_lost(tmp_path), None)
    assert view.history.known and view.history.source == tmp_path / "out" / "c1" / "clusterqueue.yaml"
    assert dict(view.high_water) == {H200: 16}
    quota = view.quota(H200)
    assert quota is not None and (quota.gpus, quota.observed_gpus) == (16, 8)


def test_inventory_show_and_report_agree_with_the_build(tmp_path: Path) -> None:
    project = _lock_lost(tmp_path)
    (row,) = summarize(load_view(project, None)).classes
    assert (row.quota, row.high_water) == (16, 16)
    (cluster,) = collect(ReportOptions(project, out=tmp_path / "r.html", cwd=tmp_path)).clusters
    assert [(r.gpu_class, r.quota, r.high_water) for r in cluster.classes] == [(H200, 16, 16)]
    run_build(project)  # the build the commands agree with writes the same mark back
    assert json.loads((tmp_path / "taugen.lock").read_text())["clusters"]["c1"]["gpuQuota"] == {H200: 16}


def test_a_new_cluster_has_no_history(tmp_path: Path) -> None:
    view = load_view(write_project(tmp_path, inventory([gpu_node("h-0")])), None)
    assert not view.history.known and dict(view.high_water) == {}
