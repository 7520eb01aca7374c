"""K6: JobSet runs (`workload: jobset`, `jobs`): the model's errors with their positions, what
render refuses, and the rendered JobSet against the upstream JobSet CRD (read in ../shared/crds/jobset)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.preflight.check import preflight
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import resolve_run
from tests.support.crd import object_schema, upstream_crds, validation_errors
from tests.support.kai import KAI_RUNS, build_kai_lab
from tests.support.runs import objects_of
from tests.support.unit import problems_of

REPO = Path(__file__).resolve().parents[2]
HEAD = """apiVersion: taugen.tau.azure.com/v1alpha1
kind: Run
metadata: {name: llm, namespace: team-a}
cluster: CLUSTER
profile: h200-train
workload: jobset
resources: {nvidia.com/gpu: 8}
image: ghcr.io/example/train:1.0
command: [python, train.py]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kai_lab(tmp_path_factory.mktemp("kai-lab"))


def _run(project: Path, body: str, cluster: str = "lab-kueue") -> Path:
    path = project.parent / "runs" / "jobset.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(HEAD.replace("CLUSTER", cluster) + body, encoding="utf-8")
    return path


def _problems(project: Path, body: str, cluster: str = "lab-kueue") -> list[tuple[int, int, str, str, str]]:
    path = _run(project, body, cluster)
    return [
        (p.line, p.col, p.rule, p.message, p.hint) for p in problems_of(lambda: resolve_run(path, project))
    ]


def _errors(obj: dict[str, Any]) -> list[str]:
    return validation_errors(object_schema(upstream_crds("jobset")[(obj["apiVersion"], obj["kind"])]), obj)


def _jobset(project: Path, case: str) -> dict[str, Any]:
    (obj,) = objects_of(render(resolve_run(KAI_RUNS / f"{case}.yaml", project)))
    return obj


def test_the_upstream_crd_holds_the_jobset_kind() -> None:
    assert sorted(upstream_crds("jobset")) == [("jobset.x-k8s.io/v1alpha2", "JobSet")]


@pytest.mark.parametrize("case", ["kueue-jobset", "kai-jobset"])
def test_a_rendered_jobset_is_valid(project: Path, case: str) -> None:
    assert _errors(_jobset(project, case)) == []


def test_the_crd_catches_a_bogus_field(project: Path) -> None:
    """The check can fail: a misspelt field in a replicatedJob and in its pod spec, a wrong type."""
    bad = copy.deepcopy(_jobset(project, "kueue-jobset"))
    job = bad["spec"]["replicatedJobs"][1]
    job["replica"] = 1
    job["template"]["spec"]["template"]["spec"]["nodeSelectr"] = {}
    job["template"]["spec"]["parallelism"] = "4"
    assert _errors(bad) == [
        "spec.replicatedJobs.1.template.spec.parallelism: '4' is not of type 'integer'",
        "spec.replicatedJobs.1.template.spec.template.spec: Additional properties are not allowed "
        "('nodeSelectr' was unexpected)",
        "spec.replicatedJobs.1: Additional properties are not allowed ('replica' was unexpected)",
    ]


def test_kueue_reads_one_pod_set_per_replicated_job(project: Path) -> None:
    """Kueue v0.19.2 (pkg/controller/jobs/jobset): pod set = replicatedJob, count = replicas x
    parallelism, its TAS request from its own pod template; the queue labels on the JobSet."""
    obj = _jobset(project, "kueue-jobset")
    assert obj["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "taugrid"
    assert obj["spec"]["suspend"] is True
    found = [
        (
            j["name"],
            j["replicas"] * j["template"]["spec"]["parallelism"],
            j["template"]["spec"]["template"]["metadata"]["annotations"],
            j["template"]["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"],
        )
        for j in obj["spec"]["replicatedJobs"]
    ]
    assert found == [
        (
            "launcher",
            1,
            {"kueue.x-k8s.io/podset-preferred-topology": "kubernetes.io/hostname"},
            {"cpu": "2", "memory": "8Gi"},
        ),
        (
            "workers",
            4,
            {
                "kueue.x-k8s.io/podset-required-topology": "tau.azure.com/network-domain",
                "kueue.x-k8s.io/podset-slice-required-topology": "kubernetes.io/hostname",
                "kueue.x-k8s.io/podset-slice-size": "1",
            },
            {"nvidia.com/gpu": "8", "cpu": "90", "memory": "1600Gi"},
        ),
    ]


def test_shape_errors_have_positions(project: Path) -> None:
    assert _problems(project, "workers: 2\n") == [
        (
            1,
            1,
            "K6",
            "document: workers does not apply to workload jobset",
            "a JobSet takes jobs (each with its own workers) and launcher none (K6)",
        )
    ]


def test_jobs_are_required_and_named_once(project: Path) -> None:
    assert _problems(project, "") == [
        (
            6,
            11,
            "K6",
            "workload jobset needs jobs",
            "list its replicatedJobs under `jobs`, e.g. `jobs: [{name: workers, workers: 4}]`",
        )
    ]
    twice = "jobs:\n  - {name: a}\n  - {name: a, workers: 2}\n"
    hint = "give each job its own name: it names the replicatedJob and its pod set"
    assert _problems(project, twice) == [(12, 12, "K6", "job name a is used twice", hint)]


def test_a_pod_name_too_long_for_jobset(project: Path) -> None:
    long = "w" * 50
    assert _problems(project, f"jobs:\n  - {{name: {long}, workers: 100}}\n") == [
        (
            11,
            12,
            "K6",
            f"the JobSet's pod names reach 65 characters ('llm-{long}-0-99-abcde'); at most 63",
            "shorten the job name to at most 48 characters, or the run's name",
        )
    ]


def test_per_job_checks(project: Path) -> None:
    """A GPU class with no GPU anywhere (§7); a job's slices that are not whole (S3)."""
    body = (
        "jobs:\n"
        "  - {name: a, resources: {cpu: '1'}}\n"
        "  - {name: b, workers: 3, resources: {cpu: '1'}, slice: {level: host, size: 2}}\n"
    )
    assert _problems(project, body) == [
        (
            11,
            3,
            "§7",
            "the run is for gpu-class h200-141gb but no job requests nvidia.com/gpu",
            "request nvidia.com/gpu in the run's resources or a job's, or choose a CPU-only profile",
        ),
        (
            12,
            57,
            "S3",
            "job b: 3 workers are not whole slices of 2",
            "use workers that are a multiple of 2, or another slice size",
        ),
    ]


def test_kai_refuses_a_per_job_topology(project: Path) -> None:
    body = "jobs:\n  - {name: a, topology: same-host}\n"
    assert _problems(project, body, "lab-kai") == [
        (
            11,
            25,
            "K6",
            "job a: a per-job topology is Kueue's (one TAS request per pod set), not KAI's",
            "remove jobs[0].topology: KAI places every replicatedJob by the run's policy (K4)",
        )
    ]


def test_torchrun_is_not_a_jobsets(project: Path) -> None:
    body = "launcher: torchrun\njobs:\n  - {name: a}\n"
    assert [p[2:4] for p in _problems(project, body)] == [
        ("K6", "document: launcher does not apply to workload jobset")
    ]


def _preflight(project: Path, body: str) -> list[tuple[str, bool, str]]:
    return [(c.id, c.ok, c.message) for c in preflight(resolve_run(_run(project, body), project)).checks]


def test_preflight_sums_quota_and_fits_pod_sets_in_order(project: Path) -> None:
    """Quota is the sum over the pod sets (2 x 8 + 2 x 8 GPUs); b goes where a leaves room."""
    body = "jobs:\n  - {name: a, workers: 2}\n  - {name: b, workers: 2}\n"
    assert _preflight(project, body)[2:] == [
        ("quota", True, "ClusterQueue taugrid, flavor taugrid-h200-141gb: nvidia.com/gpu 32 of 48"),
        ("topology", True, "pod set a: eastus/ib-b holds 2; pod set b: eastus/ib-a holds 2"),
    ]


def test_preflight_keeps_the_pod_sets_to_the_nodes_the_run_may_use(project: Path) -> None:
    """policy.node_affinity with K6: ib-b is the best fit for a's two pods, but the run keeps
    away from it, so a goes to ib-a, as Kueue's TAS filters every pod set's nodes."""
    body = (
        "policy:\n  node_affinity: [{key: tau.azure.com/network-domain, operator: NotIn, values: [ib-b]}]\n"
        "jobs:\n  - {name: a, workers: 2}\n"
    )
    assert _preflight(project, body)[3:] == [("topology", True, "pod set a: eastus/ib-a holds 2")]


def test_preflight_fails_the_pod_set_the_earlier_ones_crowd_out(project: Path) -> None:
    """a takes three hosts of ib-a; b's three fit in no network domain beside it (ib-b has two)."""
    body = "jobs:\n  - {name: a, workers: 3}\n  - {name: b, workers: 3}\n"
    message = (
        "pod set a: eastus/ib-a holds 3; pod set b: no tau.azure.com/network-domain holds its 3 pods "
        "beside the pod sets before it"
    )
    assert _preflight(project, body)[3:] == [("topology", False, message)]


def test_a_jobs_inner_slice_layers_render_and_are_checked_where_they_are(project: Path) -> None:
    """S3 with K6: a job's own slice may have inner layers, rendered as Kueue's constraints
    annotation on its replicatedJob, and refused at the job's layer where Kueue refuses them."""
    body = """jobs:
  - name: workers
    workers: 4
    topology: same-network-domain
    slice: {level: accelerator-domain, size: 4, layers: [{level: host, size: 2}]}
"""
    (obj,) = objects_of(render(resolve_run(_run(project, body), project)))
    template = obj["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]
    assert template["metadata"]["annotations"] == {
        "kueue.x-k8s.io/podset-required-topology": "tau.azure.com/network-domain",
        "kueue.x-k8s.io/podset-slice-required-topology-constraints": (
            '[{"topology":"tau.azure.com/accelerator-domain","size":4},'
            '{"topology":"kubernetes.io/hostname","size":2}]'
        ),
    }
    bad = body.replace("size: 2}", "size: 3}")
    assert _problems(project, bad) == [
        (
            14,
            78,
            "S3",
            "slice layer size 3 must evenly divide the parent layer size 4",
            "use a size that divides 4: 1, 2, 4",
        )
    ]


def test_every_replicated_job_carries_the_runs_node_affinity(project: Path) -> None:
    """policy.node_affinity with K6: each pod set's template has the one required term, so
    Kueue's TAS and the kube-scheduler filter every pod set's nodes alike."""
    body = """policy:
  node_affinity: [{key: example.com/firmware, operator: Gt, values: ["41"]}]
jobs:
  - {name: launcher, workers: 1, resources: {cpu: "2"}}
  - {name: workers, workers: 2}
"""
    (obj,) = objects_of(render(resolve_run(_run(project, body), project)))
    term = {"matchExpressions": [{"key": "example.com/firmware", "operator": "Gt", "values": ["41"]}]}
    wanted = {
        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}
    }
    found = [j["template"]["spec"]["template"]["spec"].get("affinity") for j in obj["spec"]["replicatedJobs"]]
    assert found == [wanted, wanted]
    assert _errors(obj) == []  # the CRD keeps the pod's affinity strict (trim_jobset.py)
    broken = obj["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["affinity"]
    del broken["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0][
        "matchExpressions"
    ][0]["operator"]
    assert _errors(obj) == [
        "spec.replicatedJobs.0.template.spec.template.spec.affinity.nodeAffinity."
        "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.0.matchExpressions.0: "
        "'operator' is a required property"
    ]
