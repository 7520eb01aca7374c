"""Issue 36: diff's held-quota risk (issue 34 item 7) reads the inventory's GPUs from the lock
(`heldAboveInventory`, written by the build for each class whose R26 mark is above them)
instead of loading and resolving the inventory; the same risk lines. A cluster the lock does
not know (never built): its inventory is read, as before."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from taugen.commands.build import BuildOptions, build
from taugen.commands.diff.render import prefixed
from taugen.context.session import ProjectContext
from taugen.engines.changes.engine import DiffOptions, diff
from taugen.lock.lockfile import lock_bytes, merge_locks
from taugen.models.lock import ClusterLock, Lock

CASE = Path(__file__).resolve().parents[1] / "cases" / "diff" / "quota-held-above-inventory"
HELD = "c1: quota held above inventory: h200-141gb quota 16 GPUs, the inventory has 8"


@pytest.fixture
def case(tmp_path: Path) -> Path:
    return Path(shutil.copytree(CASE, tmp_path / "case"))


def _held_lines(folder: Path) -> list[str]:
    result = diff(DiffOptions("base", "head", cwd=folder))
    return [prefixed(e) for e in result.with_risk("held")]


def _unplanned(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: ProjectContext, cluster: object) -> None:
        raise AssertionError("diff planned the cluster from its inventory")

    monkeypatch.setattr(ProjectContext, "cluster", refuse)


def test_the_lock_gives_the_risk_line_without_reading_the_inventory(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unplanned(monkeypatch)
    assert _held_lines(case) == [HELD]


def test_a_covered_quota_says_nothing_without_reading_the_inventory(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = json.loads((case / "taugen.lock").read_text())
    del lock["clusters"]["c1"]["heldAboveInventory"]  # the lock of a build whose inventory covered 16
    (case / "taugen.lock").write_text(json.dumps(lock))
    _unplanned(monkeypatch)
    assert _held_lines(case) == []


def test_the_lock_is_the_source_as_of_its_build(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lock = json.loads((case / "taugen.lock").read_text())
    lock["clusters"]["c1"]["heldAboveInventory"]["h200-141gb"] = 4  # the inventory.yaml has 8
    (case / "taugen.lock").write_text(json.dumps(lock))
    _unplanned(monkeypatch)
    assert _held_lines(case) == [HELD.replace("has 8", "has 4")]


def test_a_cluster_the_lock_does_not_know_has_its_inventory_read(case: Path) -> None:
    (case / "taugen.lock").unlink()  # never built
    assert _held_lines(case) == [HELD]


def test_a_build_records_the_gpus_of_a_class_held_above_them_only(case: Path) -> None:
    (case / "taugen.lock").unlink()
    shutil.copytree(case / "head", case / "out")  # R35: the mark 16 read back from the queues
    build(BuildOptions(project_file=case / "taugen.yaml", now=datetime(2026, 11, 29, tzinfo=UTC)))
    entry = json.loads((case / "taugen.lock").read_text())["clusters"]["c1"]
    assert (entry["gpuQuota"], entry["heldAboveInventory"]) == ({"h200-141gb": 16}, {"h200-141gb": 8})


def _entry(day: int, marks: dict[str, int], held: dict[str, int]) -> ClusterLock:
    observed = datetime(2026, 11, day, tzinfo=UTC)
    return ClusterLock(observedAt=observed, inputsDigest="sha256:x", gpuQuota=marks, heldAboveInventory=held)


def test_the_lock_writes_the_record_only_when_a_class_is_held() -> None:
    plain = json.loads(lock_bytes(Lock(clusters={"c1": _entry(1, {"a": 8}, {})})))
    assert "heldAboveInventory" not in plain["clusters"]["c1"]  # a lock as before issue 36
    held = json.loads(lock_bytes(Lock(clusters={"c1": _entry(1, {"a": 16}, {"a": 8})})))
    assert held["clusters"]["c1"]["heldAboveInventory"] == {"a": 8}


def test_a_merged_lock_holds_the_later_inventorys_gpus_under_the_higher_marks() -> None:
    """R35: the higher mark of either side; the GPUs are the later side's inventory's: a class
    that side covered (quota = GPUs) is held once the other side's higher mark is kept."""
    earlier = _entry(1, {"a": 16, "b": 4}, {"a": 8})
    later = _entry(2, {"a": 8, "c": 2}, {})
    for ours, theirs in ((earlier, later), (later, earlier)):
        merged = merge_locks(Lock(clusters={"c1": ours}), Lock(clusters={"c1": theirs})).clusters["c1"]
        assert (merged.gpuQuota, merged.heldAboveInventory) == ({"a": 16, "b": 4, "c": 2}, {"a": 8, "b": 0})
