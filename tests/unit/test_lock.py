"""The lock (SPEC §5): deterministic JSON, and fail-closed staleness (R31)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
import yaml

from tests.support.helpers import gpu_node, inventory, load_json, snapshot, write_yaml
from tests.support.unit import NOW, objects, problems_of, rules_of, run_build, write_multi, write_project

DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


def _catalog_digest(root: Path, cluster: str = "c1") -> str:
    body = objects(root, cluster)["ConfigMap/kueue-system/taugen-profile-catalog"]["data"]["profiles.yaml"]
    return str(yaml.safe_load(body)["inputsDigest"])


def test_lock_is_deterministic_json_beside_the_project(tmp_path: Path) -> None:
    """§5: sorted keys, fixed indent, final newline; per cluster observedAt, digest, quota marks."""
    run_build(write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1", gpus=4)])))
    raw = (tmp_path / "taugen.lock").read_bytes()
    lock = json.loads(raw)
    assert raw == (json.dumps(lock, indent=2, sort_keys=True) + "\n").encode()
    entry = lock["clusters"]["c1"]
    assert set(entry) == {"gpuQuota", "inputsDigest", "observedAt"}  # R33: nothing of this machine
    assert lock == {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Lock",
        "clusters": {
            "c1": {
                "gpuQuota": {"h200-141gb": 12},
                "inputsDigest": _catalog_digest(tmp_path),
                "observedAt": "2026-11-28T12:00:00Z",
            }
        },
    }


def test_lock_observed_at_is_written_in_utc(tmp_path: Path) -> None:
    run_build(write_project(tmp_path, inventory([gpu_node("h-0")], observed_at="2026-11-28T13:30:00+01:00")))
    assert load_json(tmp_path / "taugen.lock")["clusters"]["c1"]["observedAt"] == "2026-11-28T12:30:00Z"


def test_lock_unchanged_inputs_rewrite_nothing(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    assert run_build(project).written == ("c1", "taugen.lock")
    before = snapshot(tmp_path)
    assert run_build(project).written == ()
    assert snapshot(tmp_path) == before


def test_lock_clusters_sorted_and_other_entries_kept_by_cluster_build(tmp_path: Path) -> None:
    """§5 + --cluster: building one cluster leaves the others' lock entries as they were."""
    project = write_multi(
        tmp_path, {"zeta": inventory([gpu_node("z-0")]), "alpha": inventory([gpu_node("a-0")])}
    )
    run_build(project)
    first = load_json(tmp_path / "taugen.lock")["clusters"]
    assert list(first) == ["alpha", "zeta"]
    write_yaml(tmp_path / "zeta-inventory.yaml", inventory([gpu_node("z-0"), gpu_node("z-1")]))
    write_yaml(tmp_path / "alpha-inventory.yaml", inventory([gpu_node("a-0"), gpu_node("a-1")]))
    run_build(project, cluster="zeta")
    second = load_json(tmp_path / "taugen.lock")["clusters"]
    assert second["alpha"] == first["alpha"]
    assert second["zeta"]["gpuQuota"] == {"h200-141gb": 16}


def _stale_setup(tmp_path: Path) -> Path:
    project = write_project(tmp_path, inventory([gpu_node("h-0")], observed_at="2026-11-28T12:00:00Z"))
    run_build(project)
    return project


def test_r31_inventory_older_than_the_lock_is_refused(tmp_path: Path) -> None:
    """R31: fail closed; nothing in out/ or the lock changes."""
    project = _stale_setup(tmp_path)
    write_yaml(
        tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("h-1")], "2026-11-28T11:59:59Z")
    )
    before = snapshot(tmp_path / "out"), (tmp_path / "taugen.lock").read_bytes()
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("inventory.yaml", "R31")]
    assert "2026-11-28T12:00:00Z" in problems[0].message and "--allow-stale" in problems[0].hint
    assert (snapshot(tmp_path / "out"), (tmp_path / "taugen.lock").read_bytes()) == before


def test_r31_compares_instants_not_strings(tmp_path: Path) -> None:
    """R31: 12:30+01:00 is 11:30Z, older than the lock's 12:00Z although its text looks later."""
    project = _stale_setup(tmp_path)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")], "2026-11-28T12:30:00+01:00"))
    assert rules_of(problems_of(lambda: run_build(project))) == ["R31"]


def test_r31_same_or_newer_observed_at_is_accepted(tmp_path: Path) -> None:
    project = _stale_setup(tmp_path)
    assert run_build(project).written == ()
    write_yaml(
        tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("h-1")], "2026-11-28T12:00:01Z")
    )
    assert run_build(project).written == ("c1", "taugen.lock")
    assert load_json(tmp_path / "taugen.lock")["clusters"]["c1"]["observedAt"] == "2026-11-28T12:00:01Z"


def test_r31_allow_stale_builds_an_older_inventory(tmp_path: Path) -> None:
    project = _stale_setup(tmp_path)
    write_yaml(
        tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("h-1")], "2026-11-01T00:00:00Z")
    )
    result = run_build(project, allow_stale=True)
    assert result.written == ("c1", "taugen.lock")
    assert "Node/h-1" in objects(tmp_path)


@pytest.mark.parametrize(
    ("age", "refused"),
    [(timedelta(hours=168), False), (timedelta(hours=168, seconds=1), True), (timedelta(0), False)],
    ids=["exactly-max", "one-second-over", "fresh"],
)
def test_r31_max_inventory_age_with_explicit_now(tmp_path: Path, age: timedelta, refused: bool) -> None:
    """R31: older than maxInventoryAge (measured from the build's `now`) is refused."""
    project = write_project(tmp_path, maxInventoryAge="168h")
    now = NOW.replace(hour=12) + age  # OBSERVED is 12:00Z
    if refused:
        problems = problems_of(lambda: run_build(project, now=now))
        assert [(p.path.name, p.rule) for p in problems] == [("inventory.yaml", "R31")]
        assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()
    else:
        assert run_build(project, now=now).written == ("c1", "taugen.lock")


def test_r31_max_inventory_age_minutes_and_allow_stale(tmp_path: Path) -> None:
    project = write_project(tmp_path, maxInventoryAge="90m")
    late = NOW.replace(hour=13, minute=30, second=1)
    assert rules_of(problems_of(lambda: run_build(project, now=late))) == ["R31"]
    assert run_build(project, now=late, allow_stale=True).written == ("c1", "taugen.lock")


def test_r31_both_reasons_are_reported_together(tmp_path: Path) -> None:
    project = write_project(tmp_path, maxInventoryAge="1h")
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")], "2026-11-28T10:00:00Z"))
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R31", "R31"]
    assert {("lock" in p.message, "maxInventoryAge" in p.message) for p in problems} == {
        (True, False),
        (False, True),
    }
