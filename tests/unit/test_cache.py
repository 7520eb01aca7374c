"""The no-op shortcut (taugen/write/cache.py, R33/R34): never stands in for a build that would write
something, never lives in the checkout, and never answers `build --check` (issues 16, 17)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import taugen.context.cluster
import taugen.write.cache
from taugen.core.errors import Problem
from tests.support.helpers import gpu_node, inventory, snapshot, write_yaml
from tests.support.unit import objects, run_build, write_project

H200 = "h200-141gb"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The clusters the build resolved, in order: empty when the shortcut answered."""
    seen: list[str] = []
    real = taugen.context.cluster.resolve  # type: ignore[attr-defined]  # build resolves via its view

    def spy(inputs: Any) -> Any:
        seen.append(inputs.cluster.name)
        return real(inputs)

    monkeypatch.setattr(taugen.context.cluster, "resolve", spy)
    return seen


def _shrunk(tmp_path: Path) -> Path:
    """Built with two H200 nodes, then one left the inventory and a build kept quota 16."""
    project = write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1")]))
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    run_build(project)
    return project


def _gpu_quota(tmp_path: Path) -> str:
    (group,) = objects(tmp_path)["ClusterQueue/taugrid"]["spec"]["resourceGroups"]
    (flavor,) = [f for f in group["flavors"] if f["name"] == f"taugrid-{H200}"]
    return str(next(r["nominalQuota"] for r in flavor["resources"] if r["name"] == "nvidia.com/gpu"))


def test_nothing_changed_compiles_nothing_and_touches_nothing(tmp_path: Path, compiles: list[str]) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    compiles.clear()
    before = snapshot(tmp_path)
    assert run_build(project).written == ()
    assert compiles == []
    assert snapshot(tmp_path) == before


def test_allow_quota_decrease_is_honoured_after_a_no_op(tmp_path: Path) -> None:
    """Issue 16 failure 1: the flag printed `up to date` and changed nothing."""
    project = _shrunk(tmp_path)
    differences = run_build(project, check=True, allow_quota_decrease=True).differences
    assert any(line.endswith("ClusterQueue/taugrid differs") for line in differences), differences
    assert run_build(project, allow_quota_decrease=True).written == ("c1", "taugen.lock")
    assert _gpu_quota(tmp_path) == "8"


def test_allow_quota_decrease_prunes_a_vanished_class_after_a_no_op(tmp_path: Path) -> None:
    project = write_project(
        tmp_path, inventory([gpu_node("h-0"), gpu_node("a-0", "Standard_ND96amsr_A100_v4")])
    )
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    run_build(project)
    assert "ResourceFlavor/taugrid-a100-80gb" in objects(tmp_path)
    run_build(project, allow_quota_decrease=True)
    assert "ResourceFlavor/taugrid-a100-80gb" not in objects(tmp_path)


def test_a_no_op_build_repeats_the_warnings(tmp_path: Path, compiles: list[str]) -> None:
    project = _shrunk(tmp_path)
    compiles.clear()
    first = run_build(project)
    assert compiles == [] and first.written == ()
    assert [(w.rule, w.severity, w.message) for w in first.warnings] == [
        (
            "R26",
            "warning",
            "gpu-class h200-141gb: the inventory has 8 GPUs; quota stays at its high-water mark 16",
        )
    ]


def test_a_preview_never_writes_the_project_lock(tmp_path: Path) -> None:
    """Issue 17 item 6: `--out` with `--allow-quota-decrease` removed a high-water mark."""
    project = _shrunk(tmp_path)
    lock = (tmp_path / "taugen.lock").read_bytes()
    run_build(project, out=tmp_path / "preview", allow_quota_decrease=True)
    assert (tmp_path / "taugen.lock").read_bytes() == lock
    assert run_build(project).written == ()
    assert _gpu_quota(tmp_path) == "16"


def test_a_preview_check_compares_only_its_tree(tmp_path: Path) -> None:
    project = _shrunk(tmp_path)
    preview = tmp_path / "preview"
    run_build(project, out=preview)
    assert run_build(project, out=preview, check=True).differences == ()
    lines = run_build(project, out=preview, check=True, allow_quota_decrease=True).differences
    assert lines and all(line.startswith("preview/c1/") for line in lines)


def test_cluster_builds_only_that_cluster_whatever_the_cache(tmp_path: Path) -> None:
    write_yaml(tmp_path / "c2.yaml", inventory([gpu_node("b-0")], name="c2"))
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    data = json.loads(json.dumps(__import__("yaml").safe_load(project.read_text())))
    data["clusters"].append({"name": "c2", "inventory": "c2.yaml", "tenants": [{"namespace": "team-b"}]})
    write_yaml(project, data)
    run_build(project)
    write_yaml(tmp_path / "c2.yaml", inventory([gpu_node("b-0"), gpu_node("b-1")], name="c2"))
    assert run_build(project, cluster="c1").written == ()
    assert run_build(project, cluster="c1", check=True).differences == ()
    assert run_build(project, cluster="c2").written == ("c2", "taugen.lock")


def test_an_inventory_past_max_age_is_refused_even_when_nothing_changed(tmp_path: Path) -> None:
    from datetime import timedelta

    from tests.support.unit import NOW, problems_of, rules_of

    project = write_project(tmp_path, inventory([gpu_node("h-0")]), maxInventoryAge="2h")
    run_build(project)
    later = NOW + timedelta(hours=3)
    assert rules_of(problems_of(lambda: run_build(project, now=later))) == ["R31"]
    assert run_build(project, now=later, allow_stale=True).written == ()


def test_check_is_a_real_compile_whatever_the_cache_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: list[str]
) -> None:
    """Issue 17 item 3: a hand-edited out/ (a raised quota) is caught even when the cache, or
    any digest in the checkout, would vouch for it (R34)."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    queue = tmp_path / "out" / "c1" / "clusterqueue.yaml"
    queue.write_text(queue.read_text().replace("nominalQuota: '8'", "nominalQuota: '800'"))
    monkeypatch.setattr(taugen.write.cache, "lookup", lambda *_: ())  # a cache that vouches for anything
    compiles.clear()
    differences = run_build(project, check=True).differences
    assert differences == ("out/c1/clusterqueue.yaml: ClusterQueue/taugrid differs",)
    assert compiles == ["c1"]


def test_the_cache_lives_outside_the_checkout(tmp_path: Path) -> None:
    project = write_project(tmp_path / "repo", inventory([gpu_node("h-0")]))
    run_build(project)
    assert sorted(p.name for p in (tmp_path / "repo").iterdir()) == [
        "inventory.yaml",
        "out",
        "profiles",
        "taugen.lock",
        "taugen.yaml",
    ]
    (entry,) = taugen.write.cache.cache_folder().iterdir()
    assert json.loads(entry.read_text())["warnings"][0][3] == "R26"  # the new-history warning


def test_without_its_cache_the_build_is_only_slower(tmp_path: Path, compiles: list[str]) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    for entry in taugen.write.cache.cache_folder().iterdir():
        entry.unlink()
    compiles.clear()
    before = snapshot(tmp_path)
    assert run_build(project).written == ()
    assert compiles == ["c1"] and snapshot(tmp_path) == before


def test_a_changed_taugen_compiles_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: list[str]
) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    compiles.clear()
    monkeypatch.setattr(taugen.write.cache, "_compiler_digest", lambda: "another taugen")
    run_build(project)
    assert compiles == ["c1"]


def test_an_input_that_is_not_a_regular_file_is_never_read_for_the_key(tmp_path: Path) -> None:
    """Issue 17 item 7: the key is made of bounded reads of regular files only."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    request = taugen.write.cache.Request(
        project, tmp_path / "out", ("c1",), (False, False, True), (fifo,), project
    )
    assert taugen.write.cache.lookup(request, __import__("datetime").datetime.now()) is None


def test_replayed_warnings_are_problems(tmp_path: Path) -> None:
    project = _shrunk(tmp_path)
    (warning,) = run_build(project).warnings
    assert isinstance(warning, Problem) and warning.path == tmp_path / "inventory.yaml"


def _keys_made(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []
    real = taugen.write.cache._key

    def spy(request: Any) -> Any:
        made.append(real(request))
        return made[-1]

    monkeypatch.setattr(taugen.write.cache, "_key", spy)
    return made


def test_without_an_entry_no_input_is_read_for_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: list[str]
) -> None:
    """Issue 36: a first build reads its inputs once, to build; only `store` hashes them."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    made = _keys_made(monkeypatch)
    run_build(project)
    assert compiles == ["c1"] and len(made) == 1  # store's, not lookup's
    (entry,) = taugen.write.cache.cache_folder().iterdir()
    assert json.loads(entry.read_text())["key"] == made[0]
    compiles.clear()
    assert run_build(project).written == () and compiles == [] and len(made) == 2  # lookup's


def test_an_entry_without_a_key_never_answers_an_input_that_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: list[str]
) -> None:
    """An entry of another shape (no key) and a key that cannot be made (None) are not a match."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    (entry,) = taugen.write.cache.cache_folder().iterdir()
    data = json.loads(entry.read_text())
    del data["key"]
    entry.write_text(json.dumps(data))
    monkeypatch.setattr(taugen.write.cache, "_key", lambda request: None)
    compiles.clear()
    run_build(project)
    assert compiles == ["c1"]
