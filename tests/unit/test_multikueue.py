"""SPEC §11 M1-M3: the manager's objects and queue, compiled from the workers; the errors of M3
at the project file's line and column, nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.core.errors import Problem
from tests.support.fleet import FLEET, INVENTORIES, WORKER, fleet_project
from tests.support.helpers import snapshot
from tests.support.unit import objects, problems_of, run_build

META = {
    "labels": {"app.kubernetes.io/managed-by": "taugen"},
    "annotations": {
        "argocd.argoproj.io/sync-options": "SkipDryRunOnMissingResource=true",
        "argocd.argoproj.io/sync-wave": "-1",
    },
}
API = "kueue.x-k8s.io/v1beta2"


def _cluster(worker: str, secret: str) -> dict[str, Any]:
    return {
        "apiVersion": API,
        "kind": "MultiKueueCluster",
        "metadata": {"name": worker, **META},
        "spec": {"clusterSource": {"kubeConfig": {"location": secret, "locationType": "Secret"}}},
    }


def test_m1_the_manager_gets_the_check_its_config_and_one_cluster_per_worker(tmp_path: Path) -> None:
    run_build(fleet_project(tmp_path))
    docs = list(yaml.safe_load_all((tmp_path / "out/fleet-hub/multikueue.yaml").read_text()))
    assert docs == [
        {
            "apiVersion": API,
            "kind": "AdmissionCheck",
            "metadata": {"name": "taugrid-multikueue", **META},
            "spec": {
                "controllerName": "kueue.x-k8s.io/multikueue",
                "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "MultiKueueConfig", "name": "taugrid"},
            },
        },
        _cluster("westus2-dev", "westus2-dev-kubeconfig"),  # the default Secret name
        _cluster("westus3-dev", "w3-secret"),
        {
            "apiVersion": API,
            "kind": "MultiKueueConfig",
            "metadata": {"name": "taugrid", **META},
            "spec": {"clusters": ["westus3-dev", "westus2-dev"]},  # the workers' order
        },
    ]
    # no worker's tree holds a MultiKueue object, and no tree holds a Secret
    for name in ("westus3-dev", "westus2-dev"):
        assert not (tmp_path / "out" / name / "multikueue.yaml").exists()
    assert not [k for c in INVENTORIES for k in objects(tmp_path, c) if k.startswith("Secret/")]


def _flavor(name: str, gpus: str, slots: str) -> dict[str, Any]:
    return {
        "name": name,
        "resources": [
            {"name": "cpu", "nominalQuota": "100k"},
            {"name": "memory", "nominalQuota": "100Ti"},
            {"name": "nvidia.com/gpu", "nominalQuota": gpus},
            {"name": "tau.azure.com/torchrun-host-slot", "nominalQuota": slots},
        ],
    }


MANAGER_QUEUE = {
    "admissionChecksStrategy": {"admissionChecks": [{"name": "taugrid-multikueue"}]},
    "namespaceSelector": {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-research"]}
        ]
    },
    "preemption": {"withinClusterQueue": "LowerPriority"},
    "queueingStrategy": "BestEffortFIFO",
    "resourceGroups": [
        {
            "coveredResources": ["cpu", "memory", "nvidia.com/gpu", "tau.azure.com/torchrun-host-slot"],
            "flavors": [
                _flavor("taugrid-default-cpu", "0", "0"),
                _flavor("taugrid-a100-80gb", "4", "3"),  # westus3-dev 3 GPUs (2 Ready), westus2-dev 1
                _flavor("taugrid-h100-80gb", "16", "2"),  # westus2-dev only
            ],
        }
    ],
}


def test_m2_the_manager_queue_sums_the_workers_and_names_the_check(tmp_path: Path) -> None:
    run_build(fleet_project(tmp_path))
    found = objects(tmp_path, "fleet-hub")
    assert found["ClusterQueue/taugrid-dev"]["spec"] == MANAGER_QUEUE
    assert found["ResourceFlavor/taugrid-h100-80gb"]["spec"] == {
        "nodeLabels": {"tau.azure.com/gpu-class": "h100-80gb"},
        "nodeTaints": [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}],
    }  # M2: no topologyName, placement happens in the workers
    # CPU-only manager: no partial Node, no slot rule (G4), no Topology (M2); its lock entry holds the sums
    assert sorted(k.split("/")[0] for k in found) == sorted(
        ["AdmissionCheck", "ClusterQueue", "ConfigMap", "LocalQueue", "MultiKueueCluster",
         "MultiKueueCluster", "MultiKueueConfig", "PriorityClass", "PriorityClass", "ResourceFlavor",
         "ResourceFlavor", "ResourceFlavor", "ValidatingAdmissionPolicy",
         "ValidatingAdmissionPolicyBinding", "WorkloadPriorityClass", "WorkloadPriorityClass"]
    )  # fmt: skip
    lock = yaml.safe_load((tmp_path / "taugen.lock").read_text())
    assert lock["clusters"]["fleet-hub"]["gpuQuota"] == {"a100-80gb": 4, "h100-80gb": 16}


def test_m2_a_worker_leaving_keeps_the_manager_quota_until_allowed(tmp_path: Path) -> None:
    project = fleet_project(tmp_path)
    run_build(project)
    project.write_text(project.read_text().replace("[westus3-dev, westus2-dev]", "[westus3-dev]"))
    result = run_build(project)
    kept = [w for w in result.warnings if w.rule == "M2"]
    assert [w.message for w in kept] == [
        "the workers give gpu-class a100-80gb 3 GPUs; the manager's quota stays at its high-water mark 4",
        "the workers give gpu-class h100-80gb 0 GPUs; the manager's quota stays at its high-water mark 16",
    ]
    flavors = objects(tmp_path, "fleet-hub")["ClusterQueue/taugrid-dev"]["spec"]["resourceGroups"][0][
        "flavors"
    ]
    assert flavors[1:] == [_flavor("taugrid-a100-80gb", "4", "2"), _flavor("taugrid-h100-80gb", "16", "0")]
    run_build(project, allow_quota_decrease=True)
    flavors = objects(tmp_path, "fleet-hub")["ClusterQueue/taugrid-dev"]["spec"]["resourceGroups"][0][
        "flavors"
    ]
    assert flavors[1:] == [_flavor("taugrid-a100-80gb", "3", "2")]


def test_m2_a_build_of_the_manager_alone_compiles_its_workers_but_writes_only_it(tmp_path: Path) -> None:
    project = fleet_project(tmp_path)
    result = run_build(project, cluster="fleet-hub")
    assert result.written == ("fleet-hub", "taugen.lock")
    spec = objects(tmp_path, "fleet-hub")["ClusterQueue/taugrid-dev"]["spec"]
    assert spec == MANAGER_QUEUE


def build_problems(root: Path, clusters: str | None = None, fleet: str = FLEET) -> list[Problem]:
    project = fleet_project(root, clusters, fleet)
    before = snapshot(root)
    problems = problems_of(lambda: run_build(project))
    assert snapshot(root) == before  # nothing written: no out/, no taugen.lock
    return problems


def _at(root: Path, problem: Problem) -> str:
    """The text from the problem's column on its line."""
    return (root / "taugen.yaml").read_text().splitlines()[problem.line - 1][problem.col - 1 :]


def _workers(**texts: str) -> str:
    return "".join(texts.get(n, WORKER.format(name=n, inventory=i)) for n, i in INVENTORIES.items())


def test_m3_the_manager_listed_as_a_worker(tmp_path: Path) -> None:
    fleet = FLEET.replace("[westus3-dev, westus2-dev]", "[westus3-dev, fleet-hub]")
    [problem] = build_problems(tmp_path, fleet=fleet)
    assert (problem.rule, problem.message, problem.hint) == (
        "M3",
        "cluster fleet-hub is the manager and a worker",
        "remove it from workers: Kueue does not run a manager as one of its own workers",
    )
    assert _at(tmp_path, problem) == "fleet-hub]"


def test_m3_a_worker_that_is_no_cluster_of_the_project(tmp_path: Path) -> None:
    fleet = FLEET.replace("[westus3-dev, westus2-dev]", "[westus3-dev, westus2-prod]")
    [problem] = build_problems(tmp_path, fleet=fleet)
    assert (problem.rule, problem.message, problem.hint, _at(tmp_path, problem)) == (
        "M3",
        "worker westus2-prod is not a cluster of the project",
        "did you mean westus2-dev?",
        "westus2-prod]",
    )


def test_m1_a_secret_for_a_cluster_that_is_no_worker(tmp_path: Path) -> None:
    [problem] = build_problems(tmp_path, fleet=FLEET.replace("{westus3-dev: w3-secret}", "{fleet-hub: s}"))
    assert (problem.rule, problem.message, problem.hint, _at(tmp_path, problem)) == (
        "M1",
        "kubeconfigSecrets names fleet-hub, which is not a worker",
        "name a worker (westus3-dev, westus2-dev), or remove the entry",
        "fleet-hub: s}",
    )


def test_m3_workers_that_disagree_on_tenants_and_queues(tmp_path: Path) -> None:
    other = WORKER.format(name="westus2-dev", inventory=INVENTORIES["westus2-dev"]).replace(
        "      - namespace: team-research\n",
        "      - namespace: team-research\n        localQueue: research\n      - namespace: team-extra\n",
    )
    problems = build_problems(tmp_path, _workers(**{"westus2-dev": other}))
    assert [(p.rule, p.message, _at(tmp_path, p)) for p in problems] == [
        (
            "M3",
            "tenant team-research's LocalQueue is research on worker westus2-dev, "
            "taugrid on the manager fleet-hub",
            "research",
        ),
        (
            "M3",
            "tenant team-extra of worker westus2-dev is not a tenant of the manager fleet-hub",
            "team-extra",
        ),
    ]
    assert {p.hint for p in problems} == {
        "list the same tenants, each with the same localQueue, on the manager and every worker"
    }


def test_m3_a_worker_missing_a_tenant_of_the_manager(tmp_path: Path) -> None:
    hub = WORKER.format(name="fleet-hub", inventory=INVENTORIES["fleet-hub"]) + "      - namespace: team-b\n"
    problems = build_problems(tmp_path, _workers(**{"fleet-hub": hub}))
    assert [(p.rule, p.message, _at(tmp_path, p)) for p in problems] == [
        ("M3", "worker westus3-dev has no tenant team-b, which the manager fleet-hub admits", "tenants:"),
        ("M3", "worker westus2-dev has no tenant team-b, which the manager fleet-hub admits", "tenants:"),
    ]


def test_m3_a_worker_with_guaranteed_tenants_is_refused(tmp_path: Path) -> None:
    cohort = WORKER.format(name="westus2-dev", inventory=INVENTORIES["westus2-dev"]).replace(
        "      - namespace: team-research\n",
        "      - namespace: team-research\n        guaranteed: {h100-80gb: 8}\n",
    )
    [problem] = build_problems(tmp_path, _workers(**{"westus2-dev": cohort}))
    assert problem.rule == "M3" and _at(tmp_path, problem).startswith("guaranteed:")
    assert problem.message == (
        "tenant team-research of worker westus2-dev has guaranteed GPUs (a cohort): the manager's one "
        "ClusterQueue admits against the fleet's summed quota and could hold GPUs a worker guarantees "
        "to another tenant"
    )


def test_m3_a_kai_worker_has_other_priority_classes_and_queues(tmp_path: Path) -> None:
    kai = WORKER.format(name="westus2-dev", inventory=INVENTORIES["westus2-dev"]).replace(
        "    clusterQueue: taugrid-dev\n", "    clusterQueue: taugrid-dev\n    scheduler: kai\n"
    )
    [problem] = build_problems(tmp_path, _workers(**{"westus2-dev": kai}))
    assert problem.rule == "M3" and _at(tmp_path, problem) == "kai"
    assert problem.message.startswith("worker westus2-dev is scheduled by kai: it has no LocalQueues")


def test_m3_a_manager_that_is_no_cluster(tmp_path: Path) -> None:
    [problem] = build_problems(tmp_path, fleet=FLEET.replace("manager: fleet-hub", "manager: hub"))
    assert (problem.rule, problem.message, _at(tmp_path, problem)) == (
        "M3",
        "manager hub is not a cluster of the project",
        "hub",
    )


@pytest.mark.parametrize(
    ("fleet", "message"),
    [
        (
            FLEET.replace("[westus3-dev, westus2-dev]", "[westus3-dev, westus3-dev]"),
            "multikueue: worker westus3-dev is listed twice",
        ),
        (FLEET.replace("w3-secret", "W3_Secret"), None),
    ],
)
def test_m1_the_block_itself(tmp_path: Path, fleet: str, message: str | None) -> None:
    [problem] = build_problems(tmp_path, fleet=fleet)
    assert problem.line > 0
    if message is not None:
        assert (problem.rule, problem.message) == ("M1", message)


@pytest.mark.parametrize("hub", [True, False])
def test_m1_flux_applies_the_workers_queues_before_the_manager_in_a_hub(tmp_path: Path, hub: bool) -> None:
    gitops = f"gitops:\n  flux:\n    hub: {str(hub).lower()}\n    dependsOn: [{{name: kueue}}]\n"
    run_build(fleet_project(tmp_path, extra=gitops))
    core = next(yaml.safe_load_all((tmp_path / "out/_flux/fleet-hub/core.yaml").read_text()))
    workers = [{"name": "taugen-westus3-dev"}, {"name": "taugen-westus2-dev"}] if hub else []
    assert core["spec"]["dependsOn"] == [{"name": "kueue"}, *workers]
    kinds = [c["kind"] for c in core["spec"]["healthCheckExprs"]]
    assert kinds == ["ClusterQueue", "LocalQueue", "AdmissionCheck", "MultiKueueCluster"]
    worker = next(yaml.safe_load_all((tmp_path / "out/_flux/westus2-dev/core.yaml").read_text()))
    assert worker["spec"]["dependsOn"] == [{"name": "kueue"}]
    assert [c["kind"] for c in worker["spec"]["healthCheckExprs"]] == ["ClusterQueue", "LocalQueue"]


def _fleet_headlines(base: Path, head: Path, cwd: Path) -> list[tuple[str, list[str]]]:
    from taugen.engines.changes.engine import DiffOptions, diff

    result = diff(DiffOptions(str(base), str(head), cwd=cwd))
    return [(e.headline, [r.id for r in e.risks]) for e in result.entries if e.headline.startswith("fleet ")]


def test_diff_names_a_worker_added_or_removed_and_the_manager_quota(tmp_path: Path) -> None:
    one = fleet_project(tmp_path / "one", fleet=FLEET.replace("[westus3-dev, westus2-dev]", "[westus3-dev]"))
    run_build(one)
    run_build(fleet_project(tmp_path / "two"))
    assert _fleet_headlines(tmp_path / "one/out", tmp_path / "two/out", tmp_path) == [
        ("fleet fleet-hub: worker westus2-dev added", []),
        ("fleet fleet-hub: manager quota a100-80gb 3 → 4 GPUs", []),
        ("fleet fleet-hub: manager quota h100-80gb 0 → 16 GPUs", []),
    ]
    assert _fleet_headlines(tmp_path / "two/out", tmp_path / "one/out", tmp_path) == [
        ("fleet fleet-hub: worker westus2-dev removed", ["capacity"]),
        ("fleet fleet-hub: manager quota a100-80gb 4 → 3 GPUs", ["capacity"]),
        ("fleet fleet-hub: manager quota h100-80gb 16 → 0 GPUs", ["capacity"]),
    ]


def test_init_fleet_scaffolds_a_manager_and_two_workers_that_build(tmp_path: Path) -> None:
    from taugen.commands.init import init

    written = init(tmp_path / "repo", "eastus", fleet=True)
    assert [p for p in written if p.startswith(("inventory/", "flux/"))] == [
        "flux/eastus-2.yaml", "flux/eastus.yaml", "flux/fleet-hub.yaml",
        "inventory/eastus-2.yaml", "inventory/eastus.yaml", "inventory/fleet-hub.yaml",
    ]  # fmt: skip
    project = yaml.safe_load((tmp_path / "repo/taugen.yaml").read_text())
    assert project["multikueue"] == {
        "manager": "fleet-hub",
        "workers": ["eastus", "eastus-2"],
        "kubeconfigSecrets": {},
    }
    result = run_build(tmp_path / "repo/taugen.yaml")
    assert sorted(result.written) == ["_argocd", "_flux", "eastus", "eastus-2", "fleet-hub", "taugen.lock"]
    core = next(yaml.safe_load_all((tmp_path / "repo/out/_flux/fleet-hub/core.yaml").read_text()))
    assert core["spec"]["dependsOn"] == [
        {"name": "kueue"},
        {"name": "taugen-eastus"},
        {"name": "taugen-eastus-2"},
    ]


def test_m2_a_manager_with_gpu_nodes_keeps_its_topology_for_its_own_classes() -> None:
    """M2: the Topology and a flavor's topologyName stay only for classes the manager has nodes of."""
    from taugen.compile.fleet import placed_by_workers
    from taugen.compile.manifest import Manifest, object_
    from taugen.compile.quota import ClassQuota

    api = "kueue.x-k8s.io/v1beta2"

    def flavor(gpu_class: str) -> Manifest:
        spec = {"nodeLabels": {"tau.azure.com/gpu-class": gpu_class}, "topologyName": "taugrid-gpu-topology"}
        return Manifest(
            "resourceflavors.yaml", object_(api, "ResourceFlavor", f"taugrid-{gpu_class}", spec=spec)
        )

    topology = Manifest(
        "topology.yaml", object_(api, "Topology", "taugrid-gpu-topology", spec={"levels": []})
    )
    cpu = Manifest("resourceflavors.yaml", object_(api, "ResourceFlavor", "taugrid-default-cpu", spec={}))
    manifests = [topology, cpu, flavor("h100-80gb"), flavor("a100-80gb")]
    own = [ClassQuota("h100-80gb", 8, 8, 1, 1), ClassQuota("a100-80gb", 0, 0, 0, 0)]
    kept = placed_by_workers(manifests, own)
    assert [(m.kind, m.obj["metadata"]["name"], m.obj["spec"]) for m in kept] == [
        ("Topology", "taugrid-gpu-topology", {"levels": []}),
        ("ResourceFlavor", "taugrid-default-cpu", {}),
        (
            "ResourceFlavor",
            "taugrid-h100-80gb",
            {"nodeLabels": {"tau.azure.com/gpu-class": "h100-80gb"}, "topologyName": "taugrid-gpu-topology"},
        ),
        ("ResourceFlavor", "taugrid-a100-80gb", {"nodeLabels": {"tau.azure.com/gpu-class": "a100-80gb"}}),
    ]
    assert [m.kind for m in placed_by_workers(manifests, own[1:])] == ["ResourceFlavor"] * 3  # no GPU node
