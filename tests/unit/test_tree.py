"""The output tree (SPEC §4): kustomization, sync metadata, atomic and minimal writes."""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.write.journal import recover, staging_dir
from tests.support.helpers import cpu_node, gpu_node, inventory, load_json, rules, snapshot, write_yaml
from tests.support.unit import (
    NODE_ANNOTATIONS,
    SKIP_DRY_RUN,
    line_of,
    objects,
    problems_of,
    run_build,
    write_multi,
    write_project,
)

H100 = "Standard_ND96isr_H100_v5"
WAVE = "argocd.argoproj.io/sync-wave"
OPTIONS = "argocd.argoproj.io/sync-options"
OLD_NS = 1_500_000_000 * 10**9  # an mtime no build could produce by accident


def _fleet(root: Path) -> Path:
    inv = inventory([gpu_node("h-0"), gpu_node("x-0", H100), cpu_node("sys-0", "Standard_D8s_v5")])
    project = write_project(root, inv, rules((["Standard_D8s_v5"], {"example.com/role": "system"})))
    run_build(project)
    return project


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fleet built once, for the tests that only read the tree."""
    root = tmp_path_factory.mktemp("tree")
    _fleet(root)
    return root


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_kustomization_lists_every_file_and_nothing_else_is_there(built: Path) -> None:
    """§4: Kubernetes objects only; the core's kustomization.yaml lists the core's files and
    each node-label shard's (G1) its own, which the core does not list."""
    folder = built / "out" / "c1"
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    assert kustomization == {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "resources": [f for f in _files(folder) if "/" not in f and f != "kustomization.yaml"],
    }
    for shard in ("_no-gpu-class", "h100-80gb", "h200-141gb"):
        assert yaml.safe_load((folder / "nodes" / shard / "kustomization.yaml").read_text()) == {
            "apiVersion": "kustomize.config.k8s.io/v1beta1",
            "kind": "Kustomization",
            "resources": ["nodes.yaml"],
        }
    assert kustomization["resources"] == [
        "admission.yaml",
        "clusterqueue.yaml",
        "localqueues.yaml",
        "priorityclasses.yaml",
        "profile-catalog.yaml",
        "resourceflavors.yaml",
        "topology.yaml",
        "torchrun-host-slot.yaml",
        "workloadpriorityclasses.yaml",
    ]
    for rel in [*kustomization["resources"], *(f"nodes/{s}/nodes.yaml" for s in ("h100-80gb", "h200-141gb"))]:
        docs = list(yaml.safe_load_all((folder / rel).read_text()))
        assert docs and all({"apiVersion", "kind", "metadata"} <= set(d) for d in docs), rel


def test_sync_waves_per_kind(built: Path) -> None:
    """§4: PriorityClass, WPC, Topology, Nodes -2; flavors -1; ClusterQueue 0; LocalQueue, catalog 1;
    G3's admission policy -3, before the Nodes; G4's slot rule -2."""
    waves: dict[str, set[str]] = defaultdict(set)
    for obj in objects(built).values():
        waves[obj["kind"]].add(obj["metadata"]["annotations"][WAVE])
    assert dict(waves) == {
        "ValidatingAdmissionPolicy": {"-3"},
        "ValidatingAdmissionPolicyBinding": {"-3"},
        "NodeFeatureRule": {"-2"},
        "PriorityClass": {"-2"},
        "WorkloadPriorityClass": {"-2"},
        "Topology": {"-2"},
        "Node": {"-2"},
        "ResourceFlavor": {"-1"},
        "ClusterQueue": {"0"},
        "LocalQueue": {"1"},
        "ConfigMap": {"1"},
    }


def test_sync_options_per_kind(built: Path) -> None:
    """§4: Kueue objects (and NFD's, G4) skip the dry run; Nodes are SSA-merged and never pruned
    or deleted; the admission policy is a built-in kind (Kubernetes 1.30)."""
    options: dict[str, set[Any]] = defaultdict(set)
    for obj in objects(built).values():
        annotations = obj["metadata"]["annotations"]
        options[obj["kind"]].add(annotations.get(OPTIONS))
    assert dict(options) == {
        "ValidatingAdmissionPolicy": {None},
        "ValidatingAdmissionPolicyBinding": {None},
        "NodeFeatureRule": {SKIP_DRY_RUN},
        "PriorityClass": {None},
        "WorkloadPriorityClass": {SKIP_DRY_RUN},
        "Topology": {SKIP_DRY_RUN},
        "ResourceFlavor": {SKIP_DRY_RUN},
        "ClusterQueue": {SKIP_DRY_RUN},
        "LocalQueue": {SKIP_DRY_RUN},
        "Node": {NODE_ANNOTATIONS[OPTIONS]},
        "ConfigMap": {None},
    }
    nodes = [o["metadata"]["annotations"] for o in objects(built).values() if o["kind"] == "Node"]
    assert nodes == [NODE_ANNOTATIONS] * 3


def test_every_object_is_managed_by_taugen(built: Path) -> None:
    found = {
        k: o["metadata"]["labels"].get("app.kubernetes.io/managed-by") for k, o in objects(built).items()
    }
    assert found == dict.fromkeys(found, "taugen")
    assert len(found) == 17  # G3's policy and binding, G4's slot rule


def test_failed_build_leaves_out_exactly_as_it_was(tmp_path: Path) -> None:
    """§4: an input error after a good build changes no byte and no mtime."""
    project = _fleet(tmp_path)
    before = snapshot(tmp_path)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("b-0", "Standard_Unknown")]))
    problems_of(lambda: run_build(project))
    after = snapshot(tmp_path)
    after.pop("inventory.yaml")
    before.pop("inventory.yaml")
    assert after == before


def _fail_writes_under(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    original = Path.write_bytes

    def write_bytes(self: Path, data: Any) -> int:
        if part in self.parts:
            raise OSError(28, "No space left on device", str(self))
        return original(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def test_io_failure_during_write_leaves_out_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _fleet(tmp_path)
    before = snapshot(tmp_path / "out")
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("h-1")]))
    _fail_writes_under(monkeypatch, "c1")
    assert [(p.rule, p.message.split(":")[0]) for p in problems_of(lambda: run_build(project))] == [
        ("io", "No space left on device")
    ]  # exit 2 with the OS's words, never a traceback (issue 17 item 7)
    assert snapshot(tmp_path / "out") == before
    assert not staging_dir(tmp_path / "out").exists()


def test_io_failure_in_second_cluster_leaves_first_cluster_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """§4: 'a failed build leaves out/ exactly as it was' — across clusters too.

    Both clusters change; writing the second fails (disk full). The first cluster's folder
    must not be left swapped in, or out/ matches neither the old lock nor any build.
    """
    project = write_multi(tmp_path, {"c1": inventory([gpu_node("a-0")]), "c2": inventory([gpu_node("b-0")])})
    run_build(project)
    before = snapshot(tmp_path / "out"), (tmp_path / "taugen.lock").read_bytes()
    write_yaml(tmp_path / "c1-inventory.yaml", inventory([gpu_node("a-0"), gpu_node("a-1")]))
    write_yaml(tmp_path / "c2-inventory.yaml", inventory([gpu_node("b-0"), gpu_node("b-1")]))
    _fail_writes_under(monkeypatch, "c2")
    assert [(p.rule, p.message.split(":")[0]) for p in problems_of(lambda: run_build(project))] == [
        ("io", "No space left on device")
    ]  # exit 2 with the OS's words, never a traceback (issue 17 item 7)
    assert (snapshot(tmp_path / "out"), (tmp_path / "taugen.lock").read_bytes()) == before


def test_stale_files_are_removed(tmp_path: Path) -> None:
    """§4: files taugen no longer produces are removed, whatever their extension."""
    project = _fleet(tmp_path)
    folder = tmp_path / "out" / "c1"
    produced = _files(folder)
    for stray in ["extra.yaml", "nodes/old-class.yaml", "notes.json", "README.md"]:
        (folder / stray).write_text("kind: Stray\n")
    run_build(project)
    assert _files(folder) == produced


def test_files_of_a_class_that_left_are_removed(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0")]))
    run_build(project)
    folder = tmp_path / "out" / "c1"
    gone = "nodes/h100-80gb/nodes.yaml"
    assert gone not in _files(folder)
    assert gone not in yaml.safe_load((folder / "kustomization.yaml").read_text())["resources"]
    assert not (folder / "nodes" / "h100-80gb").exists()  # the emptied class folder goes too


def test_unchanged_files_keep_their_mtime(tmp_path: Path) -> None:
    """§4: only files whose bytes change are rewritten."""
    project = _fleet(tmp_path)
    folder = tmp_path / "out" / "c1"
    for path in folder.rglob("*.yaml"):
        os.utime(path, ns=(OLD_NS, OLD_NS))
    before = snapshot(folder)
    write_yaml(
        tmp_path / "inventory.yaml",
        inventory(
            [gpu_node("h-0"), gpu_node("h-1"), gpu_node("x-0", H100), cpu_node("sys-0", "Standard_D8s_v5")]
        ),
    )
    run_build(project)
    after = snapshot(folder)
    changed = sorted(k for k in after if after[k] != before.get(k))
    assert changed == [
        "clusterqueue.yaml",
        "nodes/h200-141gb/nodes.yaml",
        "resourceflavors.yaml",
    ]  # the catalog stays: every profile's readiness is as it was (issue 16)
    assert all(after[k][1] == OLD_NS for k in after if k not in changed)


def test_second_build_changes_nothing(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    before = snapshot(tmp_path)
    assert run_build(project).written == ()
    assert snapshot(tmp_path) == before


def test_cluster_removed_from_project_has_its_folder_removed(tmp_path: Path) -> None:
    project = write_multi(tmp_path, {"c1": inventory([gpu_node("a-0")]), "c2": inventory([gpu_node("b-0")])})
    run_build(project)
    c1_before = snapshot(tmp_path / "out" / "c1")
    data = yaml.safe_load(project.read_text())
    data["clusters"] = [c for c in data["clusters"] if c["name"] == "c1"]
    write_yaml(project, data)
    assert run_build(project, allow_quota_decrease=True).written == ("c2", "taugen.lock")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["c1"]
    assert snapshot(tmp_path / "out" / "c1") == c1_before
    assert list(load_json(tmp_path / "taugen.lock")["clusters"]) == ["c1"]


def test_a_cluster_leaves_the_project_only_with_allow_quota_decrease(tmp_path: Path) -> None:
    """R26, R35 (issue 32): removing a cluster from taugen.yaml dropped its quota high-water marks
    and lock history without the flag; listed again, it started from nothing."""
    project = write_multi(tmp_path, {"c1": inventory([gpu_node("a-0")]), "c2": inventory([gpu_node("b-0")])})
    run_build(project)
    data = yaml.safe_load(project.read_text())
    write_yaml(project, data | {"clusters": data["clusters"][:1]})
    before = snapshot(tmp_path)
    for build in (lambda: run_build(project), lambda: run_build(project, check=True)):
        (problem,) = problems_of(build)
        assert (problem.rule, problem.path, problem.line) == ("R26", project, line_of(project, "clusters:"))
        assert problem.message == (
            "cluster c2 is in taugen.lock but no longer in taugen.yaml: the build would drop its "
            "GPU quota (h200-141gb 8) and its lock history"
        )
        assert problem.hint == "pass --allow-quota-decrease to remove the cluster, or list it again"
    assert snapshot(tmp_path) == before
    assert run_build(project, cluster="c1").written == ()  # a build of the others still runs


def _crash_between_renames(root: Path) -> dict[str, tuple[bytes, int]]:
    """The state a build leaves when it dies after moving out/c1 aside, before moving the new one in."""
    before = snapshot(root / "c1")
    staging = staging_dir(root)
    (staging / "c1").mkdir(parents=True)
    (staging / "c1" / "clusterqueue.yaml").write_text("half-written")
    (root / "c1").rename(staging / "c1.old")
    return before


def test_recover_puts_the_old_folder_back(tmp_path: Path) -> None:
    _fleet(tmp_path)
    root = tmp_path / "out"
    before = _crash_between_renames(root)
    assert not (root / "c1").exists()
    recover(root)
    assert snapshot(root / "c1") == before
    assert not staging_dir(root).exists()


def test_build_after_a_crash_recovers_and_finds_nothing_to_do(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    root = tmp_path / "out"
    before = _crash_between_renames(root)
    assert run_build(project).written == ()
    assert snapshot(root / "c1") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "inventory.yaml",
        "out",
        "profiles",
        "rules.yaml",
        "taugen.lock",
        "taugen.yaml",
    ]


def test_recover_keeps_a_completed_swap(tmp_path: Path) -> None:
    """A crash after both renames: the new folder stays, the old one is discarded."""
    _fleet(tmp_path)
    root = tmp_path / "out"
    current = snapshot(root / "c1")
    staging = staging_dir(root)
    staging.mkdir()
    shutil.copytree(root / "c1", staging / "c1.old")
    (staging / "c1.old" / "clusterqueue.yaml").write_text("old")
    recover(root)
    assert snapshot(root / "c1") == current
    assert not staging.exists()


def test_nothing_written_outside_the_output_root(tmp_path: Path) -> None:
    """§4: a preview (--out elsewhere) writes only its tree: not even the project's lock
    (issue 17 item 6), and no staging is left behind."""
    project = write_project(tmp_path / "proj", inventory([gpu_node("h-0")]))
    elsewhere = tmp_path / "elsewhere"
    run_build(project, out=elsewhere / "tree")
    assert sorted(p.name for p in (tmp_path / "proj").iterdir()) == [
        "inventory.yaml",
        "profiles",
        "taugen.yaml",
    ]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["tree"]
    assert sorted(p.name for p in (elsewhere / "tree").iterdir()) == ["c1"]


def test_output_root_holding_inputs_is_refused(tmp_path: Path) -> None:
    """§4: the output root must not contain an input (a build would replace it)."""
    project = write_project(tmp_path)
    before = snapshot(tmp_path)
    problems = problems_of(lambda: run_build(project, out=tmp_path))
    assert {p.rule for p in problems} == {"output"}
    assert snapshot(tmp_path) == before


def test_check_mode_writes_nothing_and_reports(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h-0"), gpu_node("x-0", H100)]))
    before = snapshot(tmp_path)
    result = run_build(project, check=True)
    assert snapshot(tmp_path) == before
    assert result.written == ()
    assert any("nodes/_no-gpu-class/nodes.yaml" in line for line in result.differences)
    # R26 keeps h200's high-water mark and readiness holds: the lock stays as it is
    assert not any("taugen.lock" in line for line in result.differences)
