"""R26/R35: GPU quota never drops without --allow-quota-decrease, lock or no lock (issue 16).

The lock is the reviewed history; when it is lost the committed ClusterQueue (a KAI tree's
parent Queue) is the second source, and a lock left conflicted by a merge is read as the
maximum of both sides, never as "no history".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from taugen.core.errors import InputError
from taugen.lock.lockfile import HINT
from tests.support.helpers import gpu_node, inventory, snapshot, write_yaml
from tests.support.unit import objects, problems_of, run_build, write_project

GPU = "nvidia.com/gpu"


def _gpu_quota(root: Path, flavor: str = "taugrid-h200-141gb") -> str:
    queue = objects(root)["ClusterQueue/taugrid"]
    (group,) = queue["spec"]["resourceGroups"]
    (found,) = [f for f in group["flavors"] if f["name"] == flavor]
    return str(next(r["nominalQuota"] for r in found["resources"] if r["name"] == GPU))


def _marks(root: Path) -> dict[str, int]:
    return dict(json.loads((root / "taugen.lock").read_text())["clusters"]["c1"]["gpuQuota"])


def _two_nodes_then_one(tmp_path: Path) -> Path:
    project = write_project(tmp_path, inventory([gpu_node("h-0"), gpu_node("h-1")]))
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    return project


def test_a_deleted_lock_keeps_quota_from_the_committed_queue(tmp_path: Path) -> None:
    """Issue 16 failure 3: deleting the lock silently lowered GPU quota to the inventory."""
    project = _two_nodes_then_one(tmp_path)
    (tmp_path / "taugen.lock").unlink()
    result = run_build(project)
    assert _gpu_quota(tmp_path) == "16"
    assert _marks(tmp_path) == {"h200-141gb": 16}
    assert [(w.rule, w.path.name) for w in result.warnings] == [
        ("R35", "clusterqueue.yaml"),
        ("R26", "inventory.yaml"),  # kept at its high-water mark, as with the lock
    ]
    assert result.warnings[0].message == (
        "taugen.lock has no entry for cluster c1: GPU high-water marks read from the committed "
        "clusterqueue.yaml (R35)"
    )


def test_a_deleted_lock_and_allow_quota_decrease_lowers(tmp_path: Path) -> None:
    project = _two_nodes_then_one(tmp_path)
    (tmp_path / "taugen.lock").unlink()
    run_build(project, allow_quota_decrease=True)
    assert (_gpu_quota(tmp_path), _marks(tmp_path)) == ("8", {"h200-141gb": 8})


def test_no_lock_and_no_tree_says_it_starts_a_new_history(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    (warning,) = run_build(project).warnings
    assert (warning.rule, warning.severity, warning.path.name) == ("R26", "warning", "taugen.lock")
    assert warning.message == (
        "taugen.lock is missing and out/c1 holds no queue: cluster c1 starts a new GPU quota history"
    )


def _conflicted(ours: dict[str, int], theirs: dict[str, int]) -> str:
    def side(marks: dict[str, int]) -> list[str]:
        return [f'        "{k}": {v}' for k, v in marks.items()]

    head = '{\n  "apiVersion": "taugen.tau.azure.com/v1alpha1",\n  "clusters": {\n    "c1": {\n'
    tail = (
        '      },\n      "inputsDigest": "sha256:x",\n      "observedAt": "2026-11-28T12:00:00Z"\n'
        '    }\n  },\n  "kind": "Lock"\n}\n'
    )
    return (
        head
        + '      "gpuQuota": {\n<<<<<<< HEAD\n'
        + ",\n".join(side(ours))
        + "\n||||||| base\n"
        + '        "h200-141gb": 8\n'
        + "=======\n"
        + ",\n".join(side(theirs))
        + "\n>>>>>>> other\n"
        + tail
    )


def test_a_conflicted_lock_is_the_maximum_of_both_sides(tmp_path: Path) -> None:
    """R35: never "no history", never one side only."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    (tmp_path / "taugen.lock").write_text(_conflicted({"h200-141gb": 16}, {"h200-141gb": 24, "a100-80gb": 8}))
    result = run_build(project)
    assert _marks(tmp_path) == {"a100-80gb": 8, "h200-141gb": 24}
    assert _gpu_quota(tmp_path) == "24"
    assert "<<<<<<<" not in (tmp_path / "taugen.lock").read_text()
    assert [w.rule for w in result.warnings][:1] == ["R35"]
    assert run_build(project, check=True).differences == ()


def test_check_reports_a_conflicted_lock(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    (tmp_path / "taugen.lock").write_text(_conflicted({"h200-141gb": 8}, {"h200-141gb": 8}))
    assert run_build(project, check=True).differences == ("taugen.lock: out of date",)


def test_a_conflicted_queue_with_the_lock_lost_is_the_maximum_of_both_sides(tmp_path: Path) -> None:
    project = _two_nodes_then_one(tmp_path)
    (tmp_path / "taugen.lock").unlink()
    queue = tmp_path / "out" / "c1" / "clusterqueue.yaml"
    text = queue.read_text()
    line = "        nominalQuota: '16'\n"
    assert text.count(line) == 1
    queue.write_text(
        text.replace(line, f"<<<<<<< HEAD\n{line}=======\n        nominalQuota: '40'\n>>>>>>> other\n")
    )
    run_build(project)
    assert (_gpu_quota(tmp_path), _marks(tmp_path)) == ("40", {"h200-141gb": 40})


def test_a_broken_lock_never_suggests_deleting_it(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    (tmp_path / "taugen.lock").write_text('{"apiVersion": 1}\n')
    before = snapshot(tmp_path)
    problems = problems_of(lambda: run_build(project))
    assert {p.hint for p in problems} == {HINT}
    assert "delete" not in HINT and "git checkout HEAD -- taugen.lock" in HINT
    assert snapshot(tmp_path) == before


def test_a_lost_kai_lock_may_not_lower_the_parent_queue(tmp_path: Path) -> None:
    """A KAI tree holds only the parent Queue's total: going below it needs the flag."""
    nodes = [gpu_node("h-0"), gpu_node("h-1")]
    project = write_project(tmp_path, inventory(nodes), scheduler="kai")
    run_build(project)
    write_yaml(tmp_path / "inventory.yaml", inventory(nodes[:1]))
    (tmp_path / "taugen.lock").unlink()
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path.name) == ("R26", "queues.yaml")
    assert "taugrid 16 GPUs; this inventory gives 8" in problem.message
    assert snapshot(tmp_path) == before
    run_build(project, allow_quota_decrease=True)
    queues = list(yaml.safe_load_all((tmp_path / "out" / "c1" / "queues.yaml").read_text()))
    assert [q["spec"]["resources"]["gpu"]["quota"] for q in queues if q] == [8, 0]


def test_a_committed_queue_is_read_as_every_compiled_tree_is(tmp_path: Path) -> None:
    """Issue 18: one reader of trees (YAML 1.2 core, no !!binary); what it refuses is R35."""
    project = _two_nodes_then_one(tmp_path)
    (tmp_path / "taugen.lock").unlink()
    queue = tmp_path / "out" / "c1" / "clusterqueue.yaml"
    queue.write_text(queue.read_text() + "---\nkind: !!binary aGk=\n")
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.path.name) == ("R35", "clusterqueue.yaml")
    assert problem.message.startswith(
        "taugen.lock has no entry for this cluster and its committed queues cannot be read: "
    )


ENTRY = '"observedAt": "2026-11-28T12:00:00Z", "inputsDigest": "sha256:x"'


@pytest.mark.parametrize(
    ("theirs", "why"),
    [
        ('{"clusters": {"c1": ' + "[" * 3000 + "]" * 3000 + "}}\n", "nesting deeper than 64 levels"),
        (
            '{"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "Lock", "clusters": {'
            + ",".join(f'"c1": {{{ENTRY}, "gpuQuota": {quota}}}' for quota in ('{"h200-141gb": 64}', "{}"))
            + "}}\n",
            "the key 'c1' is given twice",
        ),
    ],
    ids=["nested-3000-deep", "duplicate-key"],
)
def test_a_conflict_side_is_read_as_strictly_as_a_lock(tmp_path: Path, theirs: str, why: str) -> None:
    """Issue 32: a side nested 3,000 deep crashed build and build --check (RecursionError), and a
    side that gave a cluster twice was read as its last entry (its high-water mark hidden)."""
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    run_build(project)
    lock = tmp_path / "taugen.lock"
    lock.write_text(f"<<<<<<< HEAD\n{lock.read_text()}=======\n{theirs}>>>>>>> other\n")
    for check in (False, True):
        with pytest.raises(InputError) as info:
            run_build(project, check=check)
        (problem,) = info.value.problems
        assert (problem.path, problem.rule) == (lock, "lock")
        assert problem.message == f"one side of the merge conflict is not a lock: {why}"
