"""The KAI Scheduler tree (SPEC §8, K1-K3): golden files, upstream CRDs, and what both schedulers share.

Regenerate the golden tree, then read the diff, with:

TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/unit/test_kai_tree.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from taugen.commands.validate import ValidateOptions, validate_paths
from tests.support.kai import KAI_CLUSTER, KUEUE_CLUSTER, build_kai_lab, tree_files

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "kai" / KAI_CLUSTER
REGENERATE = os.environ.get("TAUGEN_REGENERATE_GOLDEN") == "1"
REPO = Path(__file__).resolve().parents[2]
KAI_CRDS = REPO.parent / "shared" / "crds" / "kai"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kai_lab(tmp_path_factory.mktemp("kai-lab")).parent / "out"


def _objects(folder: Path) -> list[dict[str, Any]]:
    return [
        d
        for p in sorted(folder.rglob("*.yaml"))
        if p.name != "kustomization.yaml"
        for d in yaml.safe_load_all(p.read_text())
        if d is not None
    ]


def test_golden_tree(lab: Path) -> None:
    built = tree_files(lab / KAI_CLUSTER)
    if REGENERATE:
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for rel, content in built.items():
            (GOLDEN / rel).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / rel).write_bytes(content)
        pytest.skip("regenerated the KAI golden tree")
    assert built == tree_files(GOLDEN), (
        "run `TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/unit/test_kai_tree.py`"
    )


ADMISSION = "admissionregistration.k8s.io/v1"


def test_no_kueue_object_and_the_k3_waves(lab: Path) -> None:
    """K3: nothing Kueue; PriorityClass, Topology, Nodes -2; parent Queue -1; leaves 0; the
    admission policy (G3) -3 and the slot rule (G4) -2 as in a Kueue tree."""
    waves = {
        (o["apiVersion"], o["kind"], o["metadata"]["name"]): o["metadata"]["annotations"][
            "argocd.argoproj.io/sync-wave"
        ]
        for o in _objects(lab / KAI_CLUSTER)
        if o["kind"] not in ("Node", "ConfigMap")
    }
    assert not [k for k in waves if k[0].startswith("kueue.x-k8s.io/")]
    assert waves == {
        (ADMISSION, "ValidatingAdmissionPolicy", "taugen-no-ghost-nodes"): "-3",
        (ADMISSION, "ValidatingAdmissionPolicyBinding", "taugen-no-ghost-nodes"): "-3",
        ("nfd.k8s-sigs.io/v1alpha1", "NodeFeatureRule", "taugen-torchrun-host-slot"): "-2",
        ("scheduling.k8s.io/v1", "PriorityClass", "taugrid-default"): "-2",
        ("scheduling.k8s.io/v1", "PriorityClass", "taugrid-priority"): "-2",
        ("kai.scheduler/v1alpha1", "Topology", "taugrid-gpu-topology"): "-2",
        ("grove.io/v1alpha1", "ClusterTopologyBinding", "taugrid-gpu-topology"): "-1",
        ("scheduling.run.ai/v2", "Queue", "taugrid"): "-1",
        ("scheduling.run.ai/v2", "Queue", "taugrid-team-a"): "0",
        ("scheduling.run.ai/v2", "Queue", "taugrid-team-b"): "0",
    }


def test_queues_write_every_resource_explicitly(lab: Path) -> None:
    """K2: parent quota = the summed R26 quotas; leaves: gpuQuota (default 0), weight (default 1)."""
    queues = {o["metadata"]["name"]: o["spec"] for o in _objects(lab / KAI_CLUSTER) if o["kind"] == "Queue"}
    kueue_gpus = sum(
        r["nominalQuota"] if isinstance(r["nominalQuota"], int) else int(r["nominalQuota"])
        for o in _objects(lab / KUEUE_CLUSTER)
        if o["kind"] == "ClusterQueue"
        for f in o["spec"]["resourceGroups"][0]["flavors"]
        for r in f["resources"]
        if r["name"] == "nvidia.com/gpu"
    )

    def res(gpu: int, weight: int) -> dict[str, Any]:
        unlimited = {"quota": -1, "overQuotaWeight": weight, "limit": -1}
        return {
            "gpu": {"quota": gpu, "overQuotaWeight": weight, "limit": -1},
            "cpu": unlimited,
            "memory": unlimited,
        }

    assert queues == {
        "taugrid": {"resources": res(kueue_gpus, 1)},
        "taugrid-team-a": {"parentQueue": "taugrid", "resources": res(16, 3)},
        "taugrid-team-b": {"parentQueue": "taugrid", "resources": res(0, 1)},
    }


def test_both_schedulers_write_identical_node_labels(lab: Path) -> None:
    """§8: the same inventory gives the same partial Nodes, whatever the scheduler."""
    kai = {k: v for k, v in tree_files(lab / KAI_CLUSTER).items() if k.startswith("nodes/")}
    kueue = {k: v for k, v in tree_files(lab / KUEUE_CLUSTER).items() if k.startswith("nodes/")}
    assert kai and kai == kueue


def test_the_tree_validates_with_taugens_own_schemas(lab: Path) -> None:
    report = validate_paths(ValidateOptions(paths=(lab / KAI_CLUSTER,)))
    assert report.valid and report.count("skipped") == 0, [f.problem for f in report.findings]


@pytest.mark.skipif(not KAI_CRDS.is_dir(), reason=f"upstream KAI CRDs not found at {KAI_CRDS}")
def test_the_tree_validates_against_the_upstream_kai_crds(lab: Path) -> None:
    report = validate_paths(ValidateOptions(paths=(lab / KAI_CLUSTER,), crds=(KAI_CRDS,)))
    sources = {r.resource.kind: r.schema_source for r in report.results}
    assert report.valid, [f.problem for f in report.findings]
    assert sources["Queue"] == sources["Topology"] == "crd"


def _committed_kai_trees() -> list[Path]:
    clusters = yaml.safe_load((REPO / "taugen.yaml").read_text())["clusters"]
    return [REPO / "out" / c["name"] for c in clusters if c.get("scheduler") == "kai"]


def test_the_example_has_a_kai_cluster() -> None:
    assert _committed_kai_trees(), "the example project has no `scheduler: kai` cluster (§8)"


@pytest.mark.skipif(not KAI_CRDS.is_dir(), reason=f"upstream KAI CRDs not found at {KAI_CRDS}")
@pytest.mark.parametrize("tree", _committed_kai_trees(), ids=lambda p: p.name)
def test_committed_kai_tree_validates_against_the_upstream_crds(tree: Path) -> None:
    report = validate_paths(ValidateOptions(paths=(tree,), crds=(KAI_CRDS,)))
    assert report.valid, [f.problem for f in report.findings]


def test_tenant_order_changes_nothing(lab: Path, tmp_path: Path) -> None:
    """§4: same inputs in another order, same bytes (leaf Queues are written by namespace)."""
    project = build_kai_lab(tmp_path)
    doc = yaml.safe_load(project.read_text())
    kai = next(c for c in doc["clusters"] if c["name"] == KAI_CLUSTER)
    kai["tenants"].reverse()
    project.write_text(yaml.safe_dump(doc, sort_keys=False))
    shutil.rmtree(tmp_path / "out")
    (tmp_path / "taugen.lock").unlink()
    build(BuildOptions(project_file=project))
    assert tree_files(tmp_path / "out" / KAI_CLUSTER) == tree_files(lab / KAI_CLUSTER)
