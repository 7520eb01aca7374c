"""`taugen render` (§7, R32): the contract on every pod set, and what is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taugen.commands.render import run_warnings
from taugen.engines.runs.render import Format, render
from taugen.engines.runs.resolution import resolve_run
from taugen.validate.engine import validate
from taugen.validate.schemas import SchemaStore
from tests.support.runs import RENDER_CASES, build_lab, context_of, objects_of, run_doc
from tests.support.validate import resources_from_bytes

CASES = sorted(RENDER_CASES.glob("*.yaml"))
REQUIRED = "kueue.x-k8s.io/podset-required-topology"
UNCONSTRAINED = "kueue.x-k8s.io/podset-unconstrained-topology"
TAS = (REQUIRED, UNCONSTRAINED)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _objects(project: Path, case: str, fmt: Format = "manifest") -> list[dict[str, Any]]:
    return objects_of(render(resolve_run(RENDER_CASES / f"{case}.yaml", project), fmt))


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in _leaves(item, f"{path}/{key}").items()}
    if isinstance(value, list):
        return {k: v for i, item in enumerate(value) for k, v in _leaves(item, f"{path}/{i}").items()}
    return {path: value}


@pytest.mark.parametrize("fmt", ["manifest", "patch"])
@pytest.mark.parametrize("case", [p.stem for p in CASES])
def test_every_gpu_pod_set_has_exactly_one_tas_annotation(project: Path, case: str, fmt: Format) -> None:
    """§7: in a ClusterQueue mixing a non-TAS flavor, a GPU pod set without one is never admitted."""
    job = _objects(project, case, fmt)[0]
    template = job["spec"]["template"]
    annotations = template.get("metadata", {}).get("annotations", {})
    found = [key for key in annotations if key in TAS]
    if "tau.azure.com/gpu-class" in job["metadata"]["labels"]:
        assert len(found) == 1, annotations
        assert template["spec"]["nodeSelector"] == {
            "tau.azure.com/gpu-class": job["metadata"]["labels"]["tau.azure.com/gpu-class"]
        }
    else:  # CPU-only work lands on the non-TAS CPU flavor (R23): a TAS annotation would strand it
        assert found == [] and "nodeSelector" not in template["spec"]


@pytest.mark.parametrize(
    ("case", "annotation"),
    [
        ("gpu-unconstrained", {UNCONSTRAINED: "true"}),
        ("gpu-same-host", {REQUIRED: "kubernetes.io/hostname"}),
        ("gpu-same-accelerator-domain-torchrun", {REQUIRED: "tau.azure.com/accelerator-domain"}),
        ("gpu-same-network-domain-torchrun", {REQUIRED: "tau.azure.com/network-domain"}),
        ("gpu-same-site", {REQUIRED: "tau.azure.com/site"}),
    ],
)
def test_tas_annotation_per_topology(project: Path, case: str, annotation: dict[str, str]) -> None:
    assert _objects(project, case)[0]["spec"]["template"]["metadata"]["annotations"] == annotation


def test_tier_override_changes_only_the_two_priority_fields(project: Path) -> None:
    """§7: an explicit run tier overrides only the priority pair of the profile."""
    base = _leaves(_objects(project, "gpu-same-network-domain-torchrun"))
    tiered = _leaves(_objects(project, "gpu-same-network-domain-torchrun-priority"))
    changed = {path: (base.get(path), tiered.get(path)) for path in base.keys() | tiered.keys()}
    changed = {path: pair for path, pair in changed.items() if pair[0] != pair[1]}
    assert changed == {
        "/0/metadata/labels/kueue.x-k8s.io/priority-class": ("taugrid-default", "taugrid-priority"),
        "/0/spec/template/spec/priorityClassName": ("taugrid-default", "taugrid-priority"),
    }


def test_workload_labels_and_pod_contract(project: Path) -> None:
    """§7 on the Job and its pod template; the tenant's own LocalQueue name (team-b: b-queue)."""
    job = _objects(project, "gpu-unconstrained")[0]
    assert job["metadata"]["labels"] == {
        "kueue.x-k8s.io/queue-name": "b-queue",
        "kueue.x-k8s.io/priority-class": "taugrid-default",
        "tau.azure.com/gpu-class": "h200-141gb",
        "tau.azure.com/profile": "h200-any",
    }
    spec = job["spec"]
    assert (spec["completionMode"], spec["completions"], spec["parallelism"], spec["suspend"]) == (
        "Indexed",
        2,
        2,
        True,
    )
    pod = spec["template"]["spec"]
    assert pod["priorityClassName"] == "taugrid-default"
    assert pod["tolerations"] == [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]
    assert "tau.azure.com/torchrun-host-slot" not in str(pod)  # no torchrun: no slot


def test_multi_node_torchrun_wiring(project: Path) -> None:
    """Headless Service, node rank from the completion index, rank 0's hostname, one slot per rank."""
    job, service = _objects(project, "gpu-same-network-domain-torchrun")
    pod = job["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert pod["subdomain"] == service["metadata"]["name"] == "h200-train"
    assert container["command"][:7] == [
        "torchrun",
        "--nnodes=3",
        "--nproc-per-node=8",
        "--node-rank=$(NODE_RANK)",
        "--master-addr=h200-train-0.h200-train",
        "--master-port=29500",
        "--no-python",
    ]
    assert container["command"][7:] == ["python", "train.py"]
    assert container["env"] == [
        {
            "name": "NODE_RANK",
            "valueFrom": {
                "fieldRef": {"fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}
            },
        }
    ]
    slot = "tau.azure.com/torchrun-host-slot"
    assert container["resources"]["requests"][slot] == container["resources"]["limits"][slot] == "1"
    assert service["spec"]["clusterIP"] == "None" and service["spec"]["publishNotReadyAddresses"] is True
    assert service["spec"]["selector"] == {"batch.kubernetes.io/job-name": "h200-train"}


def test_single_node_torchrun_has_no_service_and_no_slot(project: Path) -> None:
    objects = _objects(project, "gpu-single-node-torchrun")
    assert [o["kind"] for o in objects] == ["Job"]
    container = objects[0]["spec"]["template"]["spec"]["containers"][0]
    assert container["command"][:5] == [
        "torchrun",
        "--standalone",
        "--nnodes=1",
        "--nproc-per-node=8",
        "--no-python",
    ]
    assert "tau.azure.com/torchrun-host-slot" not in container["resources"]["requests"]


def test_patch_is_only_the_contract_fragment(project: Path) -> None:
    (patch,) = _objects(project, "gpu-same-accelerator-domain-torchrun", "patch")
    pod = patch["spec"]["template"]["spec"]
    assert set(patch["spec"]) == {"template"}
    assert set(pod) == {"priorityClassName", "nodeSelector", "tolerations", "containers"}
    assert pod["containers"] == [
        {
            "name": "main",
            "resources": {
                "requests": {
                    "cpu": "120",
                    "memory": "800Gi",
                    "nvidia.com/gpu": "4",
                    "tau.azure.com/torchrun-host-slot": "1",
                },
                "limits": {"nvidia.com/gpu": "4", "tau.azure.com/torchrun-host-slot": "1"},
            },
        }
    ]


@pytest.mark.parametrize("case", [p.stem for p in CASES])
def test_rendered_manifests_validate(project: Path, case: str, tmp_path: Path) -> None:
    """What `taugen validate` says of the output: every object valid against its strict schema."""
    text = render(resolve_run(RENDER_CASES / f"{case}.yaml", project))
    report = validate(resources_from_bytes({tmp_path / "run.yaml": text.encode()}), SchemaStore(), 1)
    assert [(r.resource.kind, r.status, r.schema_source) for r in report.results] == [
        (o["kind"], "valid", "kubernetes") for o in objects_of(text)
    ]


def test_multi_node_torchrun_warns_about_placement(project: Path) -> None:
    (warning,) = run_warnings(resolve_run(RENDER_CASES / "gpu-same-network-domain-torchrun.yaml", project))
    assert warning.severity == "warning" and (warning.line, warning.rule) == (7, "§7")
    assert warning.message == (
        "multi-node torchrun: each of the 3 ranks requests one tau.azure.com/torchrun-host-slot, so every "
        "rank gets a GPU node of its own that no other multi-node torchrun workload shares, even with GPUs "
        "left on it; the ranks stay in one tau.azure.com/network-domain (same-network-domain); this does "
        "not require tau.azure.com/infiniband=true: a node without a provider fabric is a network domain "
        "of its own"
    )
    assert "nothing falls back to a wider level" in warning.hint


def test_single_node_runs_do_not_warn(project: Path) -> None:
    assert run_warnings(resolve_run(RENDER_CASES / "gpu-single-node-torchrun.yaml", project)) == []


def test_deprecated_profile_renders_and_names_its_replacement(project: Path) -> None:
    """Profile migration: h200-v1 -> h200-v2 -> h200-train; the warning names the end of the chain."""
    context = context_of(project, run_doc("h200-v1"))
    (warning,) = run_warnings(context)
    assert (warning.severity, warning.rule, warning.line) == ("warning", "deprecated", 6)
    assert warning.message == "profile h200-v1 is deprecated: it is replaced by h200-train (via h200-v2)"
    assert warning.hint == "write `profile: h200-train`"
    assert "kind: Job" in render(context)
