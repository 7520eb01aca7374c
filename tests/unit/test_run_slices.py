"""Run shapes of issue 24 (S3, K5): slices, prefer-<level> topologies and a LeaderWorkerSet
leader with its own requests — what `taugen render` writes, what it refuses, and how
`taugen simulate` places them on the lab (nvl72-a: gb200-a0..a2, nvl72-b: gb200-b0..b1, four
GPUs a host, all on fabric ib-g)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taugen.errors import InputError
from taugen.runs.preflight import preflight
from taugen.runs.render import render
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
