"""Run shapes of issue 24 (S3, K5): slices, prefer-<level> topologies and a LeaderWorkerSet
leader with its own requests — what `taugen render` writes, what it refuses, and how
`taugen simulate` places them on the lab (nvl72-a: gb200-a0..a2, nvl72-b: gb200-b0..b1, four
GPUs a host, all on fabric ib-g)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.preflight.check import preflight
from taugen.core.errors import InputError
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import resolve_run
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.kai import build_kai_lab
from tests.support.runs import build_lab, context_of, objects_of, run_doc

ISLAND = "tau.azure.com/accelerator-domain"
HOST = "kubernetes.io/hostname"
GPU4 = {"nvidia.com/gpu": 4}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _pod_annotations(project: Path, doc: dict[str, Any]) -> dict[str, str]:
    job = objects_of(render(context_of(project, doc)))[0]
    annotations: dict[str, str] = job["spec"]["template"]["metadata"]["annotations"]
    return annotations


def test_slices_render_kueues_slice_annotations(project: Path) -> None:
    doc = run_doc("gb200-island", workers=6, resources={"nvidia.com/gpu": 1})
    doc["policy"] = {"slice": {"level": "host", "size": 3}}
    assert _pod_annotations(project, doc) == {
        "kueue.x-k8s.io/podset-required-topology": ISLAND,
        "kueue.x-k8s.io/podset-slice-required-topology": HOST,
        "kueue.x-k8s.io/podset-slice-size": "3",
    }


def test_prefer_renders_the_preferred_annotation(project: Path) -> None:
    doc = run_doc("gb200-island", workers=4, resources=GPU4, policy={"topology": "prefer-accelerator-domain"})
    assert _pod_annotations(project, doc) == {"kueue.x-k8s.io/podset-preferred-topology": ISLAND}


def test_prefer_for_kai_is_the_preferred_placement_alone(tmp_path: Path) -> None:
    """K4: a preferred level and no required one."""
    lab = build_kai_lab(tmp_path / "kai")
    doc = run_doc(
        "gb200-island", cluster="lab-kai", resources=GPU4, policy={"topology": "prefer-accelerator-domain"}
    )
    owner = objects_of(render(context_of(lab, doc)))[0]
    assert owner["metadata"]["annotations"] == {
        "kai.scheduler/topology": "taugrid-gpu-topology",
        "kai.scheduler/topology-preferred-placement": ISLAND,
    }


def test_a_leader_of_its_own_requests_renders_on_the_leader_template(project: Path) -> None:
    doc = run_doc("gb200-island", workload="leaderworkerset", replicas=1, size=3, resources=GPU4)
    del doc["workers"]
    doc["leader"] = {"resources": {"cpu": "2"}}
    template = objects_of(render(context_of(project, doc)))[0]["spec"]["leaderWorkerTemplate"]
    resources = [
        template[t]["spec"]["containers"][0]["resources"] for t in ("leaderTemplate", "workerTemplate")
    ]
    assert resources == [
        {"requests": {"cpu": "2"}},
        {"requests": {"nvidia.com/gpu": "4"}, "limits": {"nvidia.com/gpu": "4"}},
    ]
    group = {"kueue.x-k8s.io/podset-required-topology": ISLAND, "kueue.x-k8s.io/podset-group-name": "job"}
    assert [template[t]["metadata"]["annotations"] for t in ("leaderTemplate", "workerTemplate")] == [
        group
    ] * 2


@pytest.mark.parametrize(
    ("fields", "rule", "message"),
    [
        (
            {"workers": 7, "policy": {"slice": {"level": "host", "size": 3}}},
            "S3",
            "7 workers are not whole slices of 3",
        ),
        (
            {"workers": 6, "policy": {"slice": {"level": "network-domain", "size": 3}}},
            "S3",
            "slices of a network-domain are wider than the topology same-accelerator-domain",
        ),
    ],
)
def test_slices_kueue_would_refuse_are_bad_input(
    project: Path, fields: dict[str, Any], rule: str, message: str
) -> None:
    doc = run_doc("gb200-island", resources={"nvidia.com/gpu": 1}, **fields)
    with pytest.raises(InputError) as caught:
        context_of(project, doc)
    assert [(p.rule, p.message) for p in caught.value.problems] == [(rule, message)]


def test_a_replica_with_slices_is_refused(project: Path) -> None:
    """K5: Kueue forbids podset-slice-* beside podset-group-name."""
    doc = run_doc("gb200-island", workload="leaderworkerset", replicas=1, size=2, resources=GPU4)
    del doc["workers"]
    doc["policy"] = {"slice": {"level": "host", "size": 1}}
    with pytest.raises(InputError) as caught:
        context_of(project, doc)
    assert [(p.rule, p.message) for p in caught.value.problems] == [
        ("K5", "Kueue forbids slices on a pod-set group (a LeaderWorkerSet replica)")
    ]


def _simulate(run: Run, project: Path, tmp_path: Path, one: dict[str, Any]) -> dict[str, Any]:
    one = {"metadata": {"name": "r", "namespace": "team-b"}, "createdAt": "2026-11-29T10:00:00Z", **one}
    path = write_yaml(tmp_path / "set.yaml", {"kind": "WorkloadSet", "runs": [one]})
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.stdout)["runs"][0]
    return found


def _ranks(found: dict[str, Any]) -> list[str]:
    return [r["host"] for r in found["ranks"]]


def test_simulate_places_slices_whole_on_hosts(run: Run, project: Path, tmp_path: Path) -> None:
    """S3: 6 one-GPU ranks in host slices of 3 take nvl72-b as 3 + 3; without slices BestFit
    would fill gb200-b0 with 4 and put 2 on gb200-b1."""
    one = {"profile": "gb200-island", "workers": 6, "resources": {"nvidia.com/gpu": 1}}
    plain = _simulate(run, project, tmp_path, one)
    sliced = _simulate(run, project, tmp_path, {**one, "policy": {"slice": {"level": "host", "size": 3}}})
    assert _ranks(plain) == ["gb200-b0"] * 4 + ["gb200-b1"] * 2
    assert _ranks(sliced) == ["gb200-b0"] * 3 + ["gb200-b1"] * 3


def test_simulate_prefer_widens_to_the_fabric(run: Run, project: Path, tmp_path: Path) -> None:
    """S3 preferred: no island holds 4 hosts, so the fabric ib-g does: all of nvl72-a (the most
    room first), then the smallest domain that holds the last rank (nvl72-b, gb200-b0)."""
    one = {"profile": "gb200-island", "workers": 4, "resources": GPU4}
    required = _simulate(run, project, tmp_path, one)
    preferred = _simulate(
        run, project, tmp_path, {**one, "policy": {"topology": "prefer-accelerator-domain"}}
    )
    assert required["status"] == "pending"
    assert (preferred["status"], _ranks(preferred)) == (
        "admitted",
        ["gb200-a0", "gb200-a1", "gb200-a2", "gb200-b0"],
    )


def test_simulate_places_a_leader_of_its_own_requests_as_a_group(
    run: Run, project: Path, tmp_path: Path
) -> None:
    """K5: two 4-GPU workers and a CPU-only leader fit the two hosts of nvl72-b (the leader
    beside the first worker); three 4-GPU pods need nvl72-a's three hosts."""
    one = {
        "profile": "gb200-island",
        "workload": "leaderworkerset",
        "replicas": 1,
        "size": 3,
        "resources": GPU4,
    }
    same = _simulate(run, project, tmp_path, one)
    led = _simulate(run, project, tmp_path, {**one, "leader": {"resources": {"cpu": "2"}}})
    assert _ranks(same) == ["gb200-a0", "gb200-a1", "gb200-a2"]
    assert _ranks(led) == ["gb200-b0", "gb200-b0", "gb200-b1"]


def test_slices_are_refused_for_kai(tmp_path: Path) -> None:
    lab = build_kai_lab(tmp_path / "kai")
    doc = run_doc("gb200-island", cluster="lab-kai", workers=2, resources=GPU4)
    doc["policy"] = {"slice": {"level": "host", "size": 1}}
    with pytest.raises(InputError) as caught:
        context_of(lab, doc)
    assert [(p.rule, p.message) for p in caught.value.problems] == [
        ("S3", "policy.slice is Kueue's (podset-slice-*): not for KAI")
    ]


def test_preflight_asks_quota_for_the_leaders_own_requests(project: Path) -> None:
    """K5: two replicas of a CPU-only leader and two 4-GPU workers ask 16 GPUs, not 24."""
    doc = run_doc("gb200-island", workload="leaderworkerset", replicas=2, size=3, resources=GPU4)
    del doc["workers"]
    doc["leader"] = {"resources": {"cpu": "2"}}
    quota = next(c for c in preflight(context_of(project, doc)).checks if c.id == "quota")
    assert quota.message == (
        "ClusterQueue taugrid, flavor taugrid-gb200-186gb: cpu 4 of 100k, nvidia.com/gpu 16 of 20"
    )


def test_preflight_places_a_leader_of_its_own_requests_beside_the_workers(project: Path) -> None:
    """K5: a CPU-only leader and three 4-GPU workers fit nvl72-a's three hosts, the leader on
    one of the workers' nodes, as Kueue places the group (before, preflight counted four
    worker-sized pods and said no island holds them); a leader too big for any host fits none."""
    doc = run_doc("gb200-island", workload="leaderworkerset", replicas=1, size=4, resources=GPU4)
    del doc["workers"]
    doc["leader"] = {"resources": {"cpu": "2"}}
    topology = next(c for c in preflight(context_of(project, doc)).checks if c.id == "topology")
    assert (topology.ok, topology.message) == (
        True,
        "tau.azure.com/accelerator-domain: best domain nvl72-a holds 4 ranks on 3 Ready nodes; headroom 0",
    )
    doc["leader"] = {"resources": {"cpu": "100000"}}
    topology = next(c for c in preflight(context_of(project, doc)).checks if c.id == "topology")
    assert (topology.ok, topology.message) == (
        False,
        "no single tau.azure.com/accelerator-domain holds 4 ranks; the largest, nvl72-a, holds "
        "0 ranks on 3 Ready nodes: lacks 4",
    )


NETWORK = "tau.azure.com/network-domain"
NETWORK_TOPOLOGY = "same-network-domain"
TWO_LAYERS = {"level": "accelerator-domain", "size": 4, "layers": [{"level": "host", "size": 2}]}


def test_inner_slice_layers_render_kueues_constraints_annotation(project: Path) -> None:
    """S3, TASMultiLayerTopology: every layer, outermost first, in the one JSON annotation
    Kueue reads instead of podset-slice-required-topology and podset-slice-size."""
    doc = run_doc("gb200-island", workers=8, resources={"nvidia.com/gpu": 1})
    doc["policy"] = {"topology": "same-network-domain", "slice": TWO_LAYERS}
    job = objects_of(render(context_of(project, doc)))[0]
    assert job == {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": "job",
            "namespace": "team-a",
            "labels": {
                "kueue.x-k8s.io/priority-class": "taugrid-default",
                "kueue.x-k8s.io/queue-name": "taugrid",
                "tau.azure.com/gpu-class": "gb200-186gb",
                "tau.azure.com/profile": "gb200-island",
            },
        },
        "spec": {
            "completionMode": "Indexed",
            "completions": 8,
            "parallelism": 8,
            "suspend": True,
            "template": {
                "metadata": {
                    "annotations": {
                        "kueue.x-k8s.io/podset-required-topology": NETWORK,
                        "kueue.x-k8s.io/podset-slice-required-topology-constraints": (
                            f'[{{"topology":"{ISLAND}","size":4}},{{"topology":"{HOST}","size":2}}]'
                        ),
                    }
                },
                "spec": {
                    "containers": [
                        {
                            "command": ["python", "train.py"],
                            "image": "ghcr.io/example/train:1.0",
                            "name": "main",
                            "resources": {
                                "limits": {"nvidia.com/gpu": "1"},
                                "requests": {"nvidia.com/gpu": "1"},
                            },
                        }
                    ],
                    "nodeSelector": {"tau.azure.com/gpu-class": "gb200-186gb"},
                    "priorityClassName": "taugrid-default",
                    "restartPolicy": "Never",
                    "tolerations": [
                        {"effect": "NoSchedule", "key": "sku", "operator": "Equal", "value": "gpu"}
                    ],
                },
            },
        },
    }


LAYERED_RUN = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Run
metadata: {{name: job, namespace: team-a}}
profile: gb200-island
workers: {workers}
launcher: {launcher}
resources: {{nvidia.com/gpu: 1}}
image: ghcr.io/example/train:1.0
command: [python, train.py]
policy:
  topology: same-network-domain
  slice:
    level: {level}
    size: {size}
    layers:
{layers}"""


def _layered_problems(project: Path, layers: str, **fields: Any) -> list[str]:
    shape = {"workers": 8, "launcher": "none", "level": "accelerator-domain", "size": 4, **fields}
    path = project.parent / "runs" / "layered.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(LAYERED_RUN.format(layers=layers, **shape))
    with pytest.raises(InputError) as caught:
        resolve_run(path, project)
    return [p.render(project.parent) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("layers", "fields", "wanted"),
    [
        (
            "    - {level: network-domain, size: 2}\n",
            {},
            [
                "runs/layered.yaml:16:15: error: slice layer network-domain must be at a lower level "
                "than accelerator-domain [S3]\n  hint: use a level below accelerator-domain: host"
            ],
        ),
        (
            "    - {level: host, size: 3}\n",
            {},
            [
                "runs/layered.yaml:16:27: error: slice layer size 3 must evenly divide the parent layer "
                "size 4 [S3]\n  hint: use a size that divides 4: 1, 2, 4"
            ],
        ),
        (
            "    - {level: accelerator-domain, size: 4}\n    - {level: accelerator-domain, size: 3}\n",
            {"level": "network-domain", "size": 8},
            [
                "runs/layered.yaml:17:15: error: slice layer accelerator-domain must be at a lower level "
                "than accelerator-domain [S3]\n  hint: use a level below accelerator-domain: host",
                "runs/layered.yaml:17:41: error: slice layer size 3 must evenly divide the parent layer "
                "size 4 [S3]\n  hint: use a size that divides 4: 1, 2, 4",
            ],
        ),
        (
            "    - {level: network-domain, size: 8}\n    - {level: accelerator-domain, size: 4}\n"
            "    - {level: host, size: 2}\n",
            {"level": "site", "size": 8},
            [
                "runs/layered.yaml:16:5: error: policy.slice.layers: 3 inner layers: Kueue takes at most "
                "3 slice layers (podset-slice-required-topology-constraints), the slice and 2 inner ones "
                "[S3]\n  hint: keep at most 2 layers"
            ],
        ),
        (
            "    - {level: host, size: 2}\n",
            {"launcher": "torchrun"},
            [
                "runs/layered.yaml:16:27: error: a host slice of more than one multi-node torchrun rank "
                "never fits: each rank takes its node's slot [S3]\n"
                "  hint: use size 1, or a wider slice level (accelerator-domain)"
            ],
        ),
    ],
    ids=["not-below", "not-dividing", "both-on-one-layer", "four-layers", "torchrun-host"],
)
def test_inner_layers_kueue_would_refuse_are_bad_input_at_their_position(
    project: Path, layers: str, fields: dict[str, Any], wanted: list[str]
) -> None:
    """Kueue v0.19.2: tas_validation.go refuses a size that does not divide its parent's and
    more than 3 layers; buildSliceSizeAtLevel a layer not below its parent."""
    assert _layered_problems(project, layers, **fields) == wanted


def test_inner_layers_on_a_replica_or_for_kai_are_refused(project: Path, tmp_path: Path) -> None:
    """K5: Kueue forbids the constraints annotation beside podset-group-name; KAI has no slices."""
    lws = run_doc("gb200-island", workload="leaderworkerset", replicas=1, size=4, resources=GPU4)
    del lws["workers"]
    lws["policy"] = {"topology": "same-network-domain", "slice": TWO_LAYERS}
    kai = run_doc("gb200-island", cluster="lab-kai", workers=8, resources={"nvidia.com/gpu": 1})
    kai["policy"] = {"topology": "same-network-domain", "slice": TWO_LAYERS}
    found = []
    for lab, doc in ((project, lws), (build_kai_lab(tmp_path / "kai"), kai)):
        with pytest.raises(InputError) as caught:
            context_of(lab, doc)
        found += [(p.rule, p.message) for p in caught.value.problems]
    assert found == [
        ("K5", "Kueue forbids slices on a pod-set group (a LeaderWorkerSet replica)"),
        ("S3", "policy.slice is Kueue's (podset-slice-*): not for KAI"),
    ]


def test_simulate_places_two_slice_layers(run: Run, project: Path, tmp_path: Path) -> None:
    """S3, two layers: 12 one-GPU ranks in island slices of 6, each in host slices of 3. One
    layer puts both island slices on nvl72-a (12 GPUs: 4 + 4 + 4); with host slices of 3 a
    4-GPU host holds one, so nvl72-a holds 3 host slices (one island slice) and nvl72-b 2 (the
    other): 3 ranks on each of four hosts, across both islands of fabric ib-g."""
    one = {"profile": "gb200-island", "workers": 12, "resources": {"nvidia.com/gpu": 1}}
    island: dict[str, Any] = {"level": "accelerator-domain", "size": 6}
    inner = {**island, "layers": [{"level": "host", "size": 3}]}
    single = _simulate(
        run, project, tmp_path, {**one, "policy": {"topology": NETWORK_TOPOLOGY, "slice": island}}
    )
    layered = _simulate(
        run, project, tmp_path, {**one, "policy": {"topology": NETWORK_TOPOLOGY, "slice": inner}}
    )
    assert _ranks(single) == ["gb200-a0"] * 4 + ["gb200-a1"] * 4 + ["gb200-a2"] * 4
    assert _ranks(layered) == ["gb200-a0"] * 3 + ["gb200-a1"] * 3 + ["gb200-b0"] * 3 + ["gb200-b1"] * 3
