"""G6: `taugen build` writes out/_argocd/ and out/_flux/<cluster>/ for every cluster of
taugen.yaml: a cluster added needs no other file, a node joining a shard touches neither
folder, a shard gone takes its Kustomization and Application with it, input order is moot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.compile.gitops.layout import deployed
from taugen.load.project import load_project
from tests.support.helpers import gpu_node, inventory, snapshot, write_yaml
from tests.support.tree import kustomize_errors
from tests.support.unit import problems_of, profile, run_build, write_profiles

FABRIC = "net.unbounded-cloud.io/network-domain"
GITOPS = {
    "argocd": {"repoURL": "https://git.example.com/acme/q.git"},
    "flux": {"sourceRef": {"kind": "GitRepository", "name": "queues"}, "dependsOn": [{"name": "kueue"}]},
}


def _nodes(cluster: str, fabrics: dict[str, int]) -> list[dict[str, Any]]:
    return [
        gpu_node(f"{cluster}-{fabric}-{i}", labels={FABRIC: fabric})
        for fabric, count in fabrics.items()
        for i in range(count)
    ]


def _project(root: Path, fleet: dict[str, dict[str, int]], gitops: dict[str, Any] | None = GITOPS) -> Path:
    clusters = []
    for name, fabrics in fleet.items():
        write_yaml(root / f"{name}.yaml", inventory(_nodes(name, fabrics), name=name))
        clusters.append({"name": name, "inventory": f"{name}.yaml", "tenants": [{"namespace": "t1"}]})
    project: dict[str, Any] = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Project",
        "profiles": write_profiles(root, profile("cpu-batch")),
        "clusters": clusters,
    }
    if gitops is not None:
        project["gitops"] = gitops
    return write_yaml(root / "taugen.yaml", project)


def _docs(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def _elements(out: Path, file: str) -> list[dict[str, str]]:
    (appset,) = _docs(out / "_argocd" / file)
    elements: list[dict[str, str]] = appset["spec"]["generators"][0]["list"]["elements"]
    return elements


def _flux_names(out: Path, cluster: str) -> list[str]:
    return [d["metadata"]["name"] for f in ("core.yaml", "nodes.yaml") for d in _fleet_docs(out, cluster, f)]


def _fleet_docs(out: Path, cluster: str, file: str) -> list[Any]:
    path = out / "_flux" / cluster / file
    return _docs(path) if path.exists() else []


def _changed(before: dict[str, tuple[bytes, int]], after: dict[str, tuple[bytes, int]]) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


TWO = {"c1": {"ib-a": 2, "ib-b": 2}, "c2": {"ib-x": 2}}


def test_every_cluster_gets_its_applications_and_kustomizations(tmp_path: Path) -> None:
    run_build(_project(tmp_path, TWO))
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["_argocd", "_flux", "c1", "c2"]
    assert _elements(out, "applicationset.yaml") == [
        {"cluster": c, "name": f"taugen-{c}", "path": f"out/{c}"} for c in ("c1", "c2")
    ]
    assert _elements(out, "applicationset-nodes.yaml") == [
        {"cluster": c, "name": f"taugen-{c}-h200-141gb-{f}", "path": f"out/{c}/nodes/h200-141gb.{f}"}
        for c, f in (("c1", "ib-a"), ("c1", "ib-b"), ("c2", "ib-x"))
    ]
    core, *shards = _fleet_docs(out, "c1", "core.yaml") + _fleet_docs(out, "c1", "nodes.yaml")
    assert core["spec"]["dependsOn"] == [{"name": "kueue"}]
    assert [(s["metadata"]["name"], s["spec"]["path"], s["spec"]["dependsOn"]) for s in shards] == [
        (f"taugen-c1-h200-141gb-{f}", f"./out/c1/nodes/h200-141gb.{f}", [{"name": "taugen-c1"}])
        for f in ("ib-a", "ib-b")
    ]
    assert {d["spec"]["sourceRef"]["name"] for d in [core, *shards]} == {"queues"}
    assert not (out / "_flux" / "kustomization.yaml").exists()  # per-cluster Flux: no root over all
    for folder in [out / "_argocd", *sorted((out / "_flux").iterdir())]:
        assert kustomize_errors(folder) is None, folder


def test_adding_a_cluster_adds_its_files_and_touches_no_other(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    before = snapshot(tmp_path / "out")
    _project(tmp_path, TWO | {"c3": {"ib-z": 1}})
    run_build(project)
    after = snapshot(tmp_path / "out")
    assert _changed(before, after) == sorted(
        [
            "_argocd/applicationset-nodes.yaml",
            "_argocd/applicationset.yaml",
            *(f"_flux/c3/{f}" for f in ("core.yaml", "kustomization.yaml", "nodes.yaml")),
            *(k for k in after if k.startswith("c3/")),
        ]
    )
    assert _elements(tmp_path / "out", "applicationset.yaml")[-1] == {
        "cluster": "c3",
        "name": "taugen-c3",
        "path": "out/c3",
    }
    assert _flux_names(tmp_path / "out", "c3") == ["taugen-c3", "taugen-c3-h200-141gb-ib-z"]


def test_a_node_joining_a_shard_rewrites_that_shard_only(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    before = snapshot(tmp_path / "out")
    _project(tmp_path, {**TWO, "c1": {"ib-a": 3, "ib-b": 2}})
    run_build(project)
    changed = _changed(before, snapshot(tmp_path / "out"))
    # the core's quotas grow with the GPUs; of the shards and G6 folders, one file changes
    assert [c for c in changed if "/nodes/" in c or c.startswith("_")] == [
        "c1/nodes/h200-141gb.ib-a/nodes.yaml"
    ]


def test_a_new_shard_adds_one_element_and_one_kustomization(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    before = snapshot(tmp_path / "out")
    _project(tmp_path, {**TWO, "c1": {"ib-a": 2, "ib-b": 2, "ib-c": 1}})
    run_build(project)
    changed = _changed(before, snapshot(tmp_path / "out"))
    assert [c for c in changed if c.startswith("_")] == [
        "_argocd/applicationset-nodes.yaml",
        "_flux/c1/nodes.yaml",
    ]
    assert "taugen-c1-h200-141gb-ib-c" in _flux_names(tmp_path / "out", "c1")


def test_a_removed_shard_loses_its_kustomization_and_application(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    _project(tmp_path, {**TWO, "c1": {"ib-a": 2}})
    run_build(project)
    out = tmp_path / "out"
    assert _flux_names(out, "c1") == ["taugen-c1", "taugen-c1-h200-141gb-ib-a"]
    assert [e["name"] for e in _elements(out, "applicationset-nodes.yaml")] == [
        "taugen-c1-h200-141gb-ib-a",
        "taugen-c2-h200-141gb-ib-x",
    ]
    assert not (out / "c1" / "nodes" / "h200-141gb.ib-b").exists()


def test_the_g6_folders_are_byte_identical_whatever_the_input_order(tmp_path: Path) -> None:
    fleet = {"c1": {"ib-a": 2, "ib-b": 2}, "c2": {"ib-x": 2}, "c3": {"ib-y": 1}}
    run_build(_project(tmp_path / "a", fleet))
    shuffled = dict(reversed(fleet.items()))
    project = _project(tmp_path / "b", {k: dict(reversed(v.items())) for k, v in shuffled.items()})
    for name in fleet:  # the nodes of each inventory in another order too
        doc = yaml.safe_load((tmp_path / "b" / f"{name}.yaml").read_text())
        random.Random(7).shuffle(doc["nodes"])
        write_yaml(tmp_path / "b" / f"{name}.yaml", doc)
    run_build(project)
    files = {
        side: {k: v[0] for k, v in snapshot(tmp_path / side / "out").items() if k.startswith("_")}
        for side in ("a", "b")
    }
    assert files["a"] == files["b"] and len(files["a"]) == 3 + 3 * 3


def test_without_a_gitops_block_nothing_is_written_and_a_removed_block_is_cleaned(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO, gitops=None)
    run_build(project)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["c1", "c2"]
    _project(tmp_path, TWO)
    run_build(project)
    _project(tmp_path, TWO, gitops={"flux": GITOPS["flux"]})  # Argo CD no longer wanted
    assert run_build(project, check=True).differences == (
        "out/_argocd: G6 files of a tool the project's `gitops:` block no longer names (a build removes it)",
    )
    run_build(project)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["_flux", "c1", "c2"]


def test_check_names_a_hand_edited_generated_file(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    path = tmp_path / "out" / "_flux" / "c2" / "core.yaml"
    path.write_text(path.read_text().replace("interval: 10m", "interval: 1m"))
    assert run_build(project, check=True).differences == (
        "out/_flux/c2/core.yaml: Kustomization/flux-system/taugen-c2 differs",
    )


def test_a_one_cluster_build_leaves_the_g6_folders_to_a_full_build(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    before = {k: v for k, v in snapshot(tmp_path / "out").items() if k.startswith("_")}
    _project(tmp_path, {**TWO, "c1": {"ib-a": 2, "ib-b": 2, "ib-c": 1}})
    run_build(project, cluster="c1")
    assert {k: v for k, v in snapshot(tmp_path / "out").items() if k.startswith("_")} == before
    assert run_build(project, check=True).differences  # a full build would add the new shard


def test_a_flux_hub_applies_through_each_clusters_kubeconfig(tmp_path: Path) -> None:
    run_build(_project(tmp_path, TWO, gitops={"flux": {"hub": True}}))
    out = tmp_path / "out"
    root = _docs(out / "_flux" / "kustomization.yaml")[0]
    assert root["resources"] == ["c1", "c2"]  # one entry on the hub syncs ./out/_flux
    for cluster in ("c1", "c2"):
        for doc in _fleet_docs(out, cluster, "core.yaml") + _fleet_docs(out, cluster, "nodes.yaml"):
            assert doc["spec"]["kubeConfig"] == {"secretRef": {"name": f"{cluster}-kubeconfig"}}
            assert doc["spec"]["sourceRef"] == {"kind": "GitRepository", "name": "flux-system"}
    assert kustomize_errors(out / "_flux") is None


def test_a_stray_or_linked_folder_beside_them_is_still_refused(tmp_path: Path) -> None:
    project = _project(tmp_path, TWO)
    run_build(project)
    (tmp_path / "out" / "_other").mkdir()
    problems = problems_of(lambda: run_build(project))
    assert [p.message.split(":")[-1].strip() for p in problems] == ["Argo CD or Flux would deploy it"]
    (tmp_path / "out" / "_other").rmdir()
    (tmp_path / "out" / "_flux").rename(tmp_path / "elsewhere")
    (tmp_path / "out" / "_flux").symlink_to(tmp_path / "elsewhere")
    (problem,) = problems_of(lambda: run_build(project))
    assert "_flux: is a symbolic link" in problem.message


def test_names_are_labels_unique_across_the_project() -> None:
    """A shard that would be named like another cluster's core, or past 63 characters, gets a
    digest; cores keep taugen-<cluster>."""
    long = "x" * 60
    parts = deployed(
        "out",
        [("east", True, ["us", f"{long}.ib-1"]), ("east-us", True, []), ("w", False, ["_no-gpu-class"])],
    )
    names = [p.name for c in parts for p in (c.core, *c.shards)]
    assert names[0] == "taugen-east" and names[3] == "taugen-east-us" and names[4] == "taugen-w"
    assert names[1].startswith("taugen-east-us-") and len(names[1]) == len("taugen-east-us-") + 8
    assert names[5].startswith("taugen-w-no-gpu-class-")
    assert len(set(names)) == len(names) and all(len(n) <= 63 for n in names)
    assert all(n.replace("-", "").isalnum() and n == n.lower() for n in names)


@pytest.mark.parametrize(
    ("gitops", "output", "message"),
    [
        ({}, "out", "the gitops block names neither argocd nor flux"),
        ({"flux": {}, "path": "../up"}, "out", "'../up' is not a folder inside the repository"),
        ({"flux": {}}, "../out", "output: '../out' leads outside the project"),
    ],
)
def test_a_gitops_block_that_cannot_work_is_refused(
    tmp_path: Path, gitops: dict[str, Any], output: str, message: str
) -> None:
    project = _project(tmp_path, TWO, gitops=gitops)
    doc = yaml.safe_load(project.read_text())
    write_yaml(project, doc | {"output": output})
    (problem,) = problems_of(lambda: load_project(project))
    assert message in problem.message
    assert problem.line > 0


def test_a_build_after_a_hand_edit_puts_the_generated_file_back(tmp_path: Path) -> None:
    """The no-op cache digests the G6 folders too: an edited one is rebuilt, not replayed."""
    project = _project(tmp_path, TWO)
    run_build(project)
    path = tmp_path / "out" / "_argocd" / "applicationset.yaml"
    written = path.read_bytes()
    path.write_text(path.read_text().replace("prune: true", "prune: false"))
    assert run_build(project).written == ("_argocd",)
    assert path.read_bytes() == written
