"""The parts of simulate vs Kueue that need no cluster (issue 31 item 5): decoding Kueue's
v1beta2 TopologyAssignment, the Workload written from a rendered Job, the isolation of
taugen's objects, and the shape Kueue treats as equivalent."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.realcluster.simkueue_objects import SCENARIO_LABEL, Isolation, isolate
from tests.realcluster.simkueue_workloads import decision, decode, shape, topology_request, workload

ISO = Isolation("s007")
LAYERS = '[{"topology": "rack", "size": 4}]'


def test_a_universal_level_and_prefixed_roots() -> None:
    """As Kueue wrote it for two hosts e1-h0 and e1-h1 of one pod each."""
    assignment = {
        "levels": ["kubernetes.io/hostname"],
        "slices": [
            {
                "domainCount": 2,
                "podCounts": {"universal": 1},
                "valuesPerLevel": [{"individual": {"prefix": "e1-h", "roots": ["0", "1"]}}],
            }
        ],
    }
    assert decode(assignment) == {("e1-h0",): 1, ("e1-h1",): 1}


def test_suffixes_individual_counts_and_several_slices() -> None:
    """Every encoding at once: a universal level, prefix + root + suffix, roots alone, counts
    per domain; a domain named in two slices sums its pods."""
    assignment = {
        "levels": ["rack", "kubernetes.io/hostname"],
        "slices": [
            {
                "domainCount": 3,
                "podCounts": {"individual": [2, 1, 4]},
                "valuesPerLevel": [
                    {"universal": "r1"},
                    {"individual": {"prefix": "node-", "suffix": ".lab", "roots": ["a", "b", "c"]}},
                ],
            },
            {
                "domainCount": 2,
                "podCounts": {"universal": 3},
                "valuesPerLevel": [
                    {"individual": {"roots": ["r2", "r1"]}},
                    {"individual": {"roots": ["x", "node-a.lab"]}},
                ],
            },
        ],
    }
    assert decode(assignment) == {
        ("r1", "node-a.lab"): 5,
        ("r1", "node-b.lab"): 1,
        ("r1", "node-c.lab"): 4,
        ("r2", "x"): 3,
    }
    assert decode(None) == {} and decode({"levels": ["h"], "slices": []}) == {}


def _job(annotations: dict[str, str]) -> dict[str, Any]:
    template = {
        "metadata": {"annotations": annotations},
        "spec": {"containers": [{"name": "main", "resources": {"requests": {"nvidia.com/gpu": "8"}}}]},
    }
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": "train",
            "namespace": "team-a",
            "labels": {
                "kueue.x-k8s.io/queue-name": "taugrid",
                "kueue.x-k8s.io/priority-class": "taugrid-default",
            },
        },
        "spec": {"completions": 3, "parallelism": 3, "template": template},
    }


def test_a_job_becomes_the_workload_kueues_job_integration_writes() -> None:
    job = _job({"kueue.x-k8s.io/podset-required-topology": "tau.azure.com/network-domain"})
    found = workload(job, ISO, {"taugrid-default": 1000})
    assert found == {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "Workload",
        "metadata": {"name": "train", "namespace": "s007-team-a"},
        "spec": {
            "queueName": "taugrid",
            "priorityClassRef": {
                "group": "kueue.x-k8s.io",
                "kind": "WorkloadPriorityClass",
                "name": "s007-taugrid-default",
            },
            "priority": 1000,
            "podSets": [
                {
                    "name": "main",
                    "count": 3,
                    "template": job["spec"]["template"],
                    "topologyRequest": {
                        "required": "tau.azure.com/network-domain",
                        "podIndexLabel": "batch.kubernetes.io/job-completion-index",
                    },
                }
            ],
        },
    }


@pytest.mark.parametrize(
    ("annotations", "replicas", "wanted"),
    [
        ({"kueue.x-k8s.io/podset-preferred-topology": "x"}, None, {"preferred": "x"}),
        ({"kueue.x-k8s.io/podset-unconstrained-topology": "true"}, None, {"unconstrained": True}),
        ({}, 1, {"subGroupIndexLabel": "jobset.sigs.k8s.io/job-index", "subGroupCount": 1}),
        (
            {
                "kueue.x-k8s.io/podset-required-topology": "site",
                "kueue.x-k8s.io/podset-preferred-topology": "ignored: required wins",
                "kueue.x-k8s.io/podset-slice-required-topology": "kubernetes.io/hostname",
                "kueue.x-k8s.io/podset-slice-size": "2",
            },
            None,
            {
                "required": "site",
                "podSetSliceRequiredTopology": "kubernetes.io/hostname",
                "podSetSliceSize": 2,
            },
        ),
        (
            {
                "kueue.x-k8s.io/podset-required-topology": "site",
                "kueue.x-k8s.io/podset-slice-required-topology-constraints": LAYERS,
            },
            None,
            {"required": "site", "podsetSliceRequiredTopologyConstraints": [{"topology": "rack", "size": 4}]},
        ),
    ],
)
def test_the_topology_request_as_jobframework_builds_it(
    annotations: dict[str, str], replicas: int | None, wanted: dict[str, Any]
) -> None:
    index = {"podIndexLabel": "batch.kubernetes.io/job-completion-index"}
    assert topology_request(annotations, replicas) == wanted | index


def test_isolation_renames_every_name_and_reference() -> None:
    flavor = {
        "kind": "ResourceFlavor",
        "metadata": {"name": "taugrid-h200"},
        "spec": {"nodeLabels": {"tau.azure.com/gpu-class": "h200"}, "topologyName": "taugrid-gpu-topology"},
    }
    queue = {
        "kind": "ClusterQueue",
        "metadata": {"name": "taugrid-team-a"},
        "spec": {
            "cohortName": "taugrid",
            "namespaceSelector": {
                "matchExpressions": [
                    {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-a"]}
                ]
            },
            "resourceGroups": [
                {"coveredResources": ["cpu"], "flavors": [{"name": "taugrid-h200", "resources": []}]}
            ],
        },
    }
    local = {
        "kind": "LocalQueue",
        "metadata": {"name": "q", "namespace": "team-a"},
        "spec": {"clusterQueue": "taugrid"},
    }
    before = copy.deepcopy([flavor, queue, local])
    found = [isolate(o, ISO) for o in (flavor, queue, local)]
    assert [flavor, queue, local] == before  # not changed in place
    assert found[0]["metadata"]["name"] == "s007-taugrid-h200"
    assert found[0]["spec"] == {
        "nodeLabels": {"tau.azure.com/gpu-class": "h200", SCENARIO_LABEL: "s007"},
        "topologyName": "s007-taugrid-gpu-topology",
    }
    spec = found[1]["spec"]
    assert (found[1]["metadata"]["name"], spec["cohortName"]) == ("s007-taugrid-team-a", "s007-taugrid")
    assert spec["namespaceSelector"]["matchExpressions"][0]["values"] == ["s007-team-a"]
    assert spec["resourceGroups"][0]["flavors"][0]["name"] == "s007-taugrid-h200"
    assert found[2]["metadata"] == {"name": "q", "namespace": "s007-team-a"}
    assert found[2]["spec"] == {"clusterQueue": "s007-taugrid"}
    assert ISO.unprefixed("s007-n3") == "n3"


def test_the_shape_ignores_names_and_commands_but_not_requests() -> None:
    first = workload(_job({}), ISO, {"taugrid-default": 1000})
    renamed = copy.deepcopy(first)
    renamed["metadata"]["name"] = "other"
    renamed["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["command"] = ["other"]
    bigger = copy.deepcopy(first)
    bigger["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1"
    assert shape(first) == shape(renamed) != shape(bigger)


def test_a_decision_is_read_from_the_quota_reserved_condition() -> None:
    pending = {"status": {"conditions": [{"type": "QuotaReserved", "status": "False", "message": "no"}]}}
    admitted = {
        "status": {
            "conditions": [{"type": "QuotaReserved", "status": "True"}],
            "admission": {
                "podSetAssignments": [{"flavors": {"cpu": "s007-cpu", "nvidia.com/gpu": "s007-gpu"}}]
            },
        }
    }
    assert decision({"status": {}}) is None and decision(None) is None
    got = decision(pending)
    assert got is not None and (got.status, got.message) == ("pending", "no")
    got = decision(admitted)
    assert got is not None and (got.status, got.flavor, got.pod_sets) == ("admitted", "s007-gpu", ({},))
