"""Issue 34's "done when" for R42, R43 through the CLI, on two realistic NodeLists.

On-prem (tests/data/platforms/onprem-h100-racks.yaml): 16 nodes of 8 H100 in racks r07 and r08
on one InfiniBand fabric, the operator's own label keys, RDMA, the GPU taint without a value,
gpu-r08-n08 NotReady. The cluster declares one level, `rack`, and a 4 x 8 GPU torchrun run
requires it. EKS (tests/data/platforms/eks-p5.yaml): `topology: {levels: eks}`, a run requires
`layer-3` (one network block). The same on-prem cluster on KAI with Grove, and a run naming a
level the cluster does not declare."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import Run

DATA = Path(__file__).resolve().parents[1] / "data" / "platforms"
RACK = "dc.example.org/rack"
LOCK_WARNING = (
    "{1}: warning: taugen.lock is missing and out/{0} holds no queue: cluster {0} starts a new "
    "GPU quota history [R26]\n"
    "  hint: expected for a new cluster; otherwise restore taugen.lock from Git before building\n"
)
ONPREM = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Project
profiles: [profiles]
clusters:
  - name: onprem-h100
    inventory: nodes.yaml
    rules: [rules.yaml]
    site: dc1
    topologyLabels: {networkDomain: [dc.example.org/ib-fabric]}
    topology: {levels: [{name: rack, label: dc.example.org/rack}]}
    gpuNodeTaints: [{key: nvidia.com/gpu, effect: NoSchedule}]
    extraResources: [rdma/]
    tenants: [{namespace: team-a}, {namespace: team-b}, {namespace: team-c}]
"""
EKS = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Project
profiles: [profiles]
clusters:
  - name: eks-p5
    inventory: nodes.yaml
    rules: [rules.yaml]
    topologyLabels: eks
    topology: {levels: eks}
    gpuNodeTaints: [{key: nvidia.com/gpu, effect: NoSchedule}]
    extraResources: [vpc.amazonaws.com/efa]
    tenants: [{namespace: team-a}, {namespace: team-b}, {namespace: team-c}]
"""
RDMA_RUN = """\
apiVersion: taugen.tau.azure.com/v1alpha1
kind: Run
metadata: {name: llama-rdma, namespace: team-a}
profile: h100-training
workers: 4
policy: {topology: {required: rack}}
resources: {nvidia.com/gpu: 8, cpu: "96", memory: 1600Gi, rdma/rdma_shared_device_a: 1}
launcher: torchrun
image: ghcr.io/example/train:1.0
command: [python, train.py]
"""
EFA_RUN = (
    RDMA_RUN.replace("llama-rdma", "llama-efa")
    .replace("required: rack", "required: layer-3")
    .replace('"96"', '"90"')
    .replace("rdma/rdma_shared_device_a: 1", "vpc.amazonaws.com/efa: 32")
)


def _project(root: Path, nodelist: str, project: str, match: dict[str, Any]) -> Path:
    shutil.copy(DATA / nodelist, root / "nodes.yaml")
    profile = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadProfile",
        "metadata": {"name": "h100-training"},
        "policy": {"gpu_class": "h100-80gb", "priority_tier": "default", "topology": "unconstrained"},
    }
    (root / "profiles").mkdir()
    (root / "profiles" / "h100-training.yaml").write_text(yaml.safe_dump(profile))
    rules = {"extraNodeLabelRules": [{"match": match, "labels": {"tau.azure.com/gpu-class": "h100-80gb"}}]}
    (root / "rules.yaml").write_text(yaml.safe_dump(rules))
    (root / "taugen.yaml").write_text(project)
    return root / "taugen.yaml"


def _onprem(run: Run, root: Path, project: str = ONPREM) -> Path:
    """The on-prem project, built: R36's label rule, no other output than the new lock's R26
    warning (no R39 taint warning for the valueless taint, no R46 warning for the own keys)."""
    config = _project(
        root,
        "onprem-h100-racks.yaml",
        project,
        {"labels": {"nvidia.com/gpu.product": ["NVIDIA-H100-80GB-HBM3"]}},
    )
    result = run("build", "-c", config)
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "wrote onprem-h100, taugen.lock\n",
        LOCK_WARNING.format("onprem-h100", root / "taugen.lock"),
    )
    return config


def _eks(run: Run, root: Path) -> Path:
    config = _project(root, "eks-p5.yaml", EKS, {"vmSizes": ["p5.48xlarge"]})
    result = run("build", "-c", config)
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "wrote eks-p5, taugen.lock\n",
        LOCK_WARNING.format("eks-p5", root / "taugen.lock"),
    )
    return config


def _spec(path: Path) -> Any:
    """The spec of the one object a generated file holds (after its header comment)."""
    (only,) = list(yaml.safe_load_all(path.read_text()))
    return only["spec"]


def _job(run: Run, root: Path, config: Path, text: str) -> dict[str, Any]:
    run_file = root / "run.yaml"
    run_file.write_text(text)
    result = run("render", run_file, "-c", config)
    assert result.exit_code == 0, result.output
    job: dict[str, Any] = next(d for d in yaml.safe_load_all(result.stdout) if d["kind"] == "Job")
    return job


def _preflight(run: Run, root: Path, config: Path, text: str) -> tuple[int, dict[str, tuple[bool, str]]]:
    run_file = root / "run.yaml"
    run_file.write_text(text)
    result = run("preflight", run_file, "-c", config, "-o", "json")
    checks = {c["id"]: (c["ok"], c["message"]) for c in json.loads(result.stdout)["checks"]}
    return result.exit_code, checks


def _simulated(run: Run, root: Path, config: Path, text: str) -> list[tuple[str, str, list[str], str | None]]:
    """`text` (a Run) simulated as the one run of a WorkloadSet: (name, status, hosts, reason)."""
    body = text.split("kind: Run\n", 1)[1].replace("metadata:", "  - metadata:", 1).splitlines()
    runs = [body[0], '    createdAt: "2026-03-02T09:00:00Z"', *("    " + line for line in body[1:])]
    workloads = root / "set.yaml"
    head = "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: WorkloadSet\nruns:\n"
    workloads.write_text(head + "\n".join(runs) + "\n")
    result = run("simulate", workloads, "-c", config, "-o", "json")
    assert result.exit_code == 0, result.output
    return [
        (r["name"], r["status"], [h["host"] for h in r["hosts"]], r["reason"])
        for r in json.loads(result.stdout)["runs"]
    ]


def _levels(*labels: str) -> list[dict[str, str]]:
    return [{"nodeLabel": label} for label in labels]


def test_r42_onprem_rack_sits_below_the_site_and_above_the_unmapped_domains(run: Run, tmp_path: Path) -> None:
    _onprem(run, tmp_path)
    assert _spec(tmp_path / "out" / "onprem-h100" / "topology.yaml") == {
        "levels": _levels(
            "tau.azure.com/site",
            RACK,
            "tau.azure.com/network-domain",
            "tau.azure.com/accelerator-domain",
            "kubernetes.io/hostname",
        )
    }


def test_r43_onprem_required_rack_renders_the_rack_label(run: Run, tmp_path: Path) -> None:
    config = _onprem(run, tmp_path)
    job = _job(run, tmp_path, config, RDMA_RUN)
    pod = job["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    assert job["metadata"]["labels"] == {
        "kueue.x-k8s.io/priority-class": "taugrid-default",
        "kueue.x-k8s.io/queue-name": "taugrid",
        "tau.azure.com/gpu-class": "h100-80gb",
        "tau.azure.com/profile": "h100-training",
    }
    assert pod["metadata"] == {"annotations": {"kueue.x-k8s.io/podset-required-topology": RACK}}
    assert (pod["spec"]["nodeSelector"], pod["spec"]["tolerations"]) == (
        {"tau.azure.com/gpu-class": "h100-80gb"},
        [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}],  # R39: no value
    )
    limits = {
        "nvidia.com/gpu": "8",
        "rdma/rdma_shared_device_a": "1",
        "tau.azure.com/torchrun-host-slot": "1",
    }
    assert container["resources"] == {
        "limits": limits,
        "requests": {"cpu": "96", "memory": "1600Gi", **limits},
    }


def test_r43_onprem_preferred_rack_renders_the_preferred_annotation(run: Run, tmp_path: Path) -> None:
    config = _onprem(run, tmp_path)
    job = _job(run, tmp_path, config, RDMA_RUN.replace("required: rack", "preferred: rack"))
    assert job["spec"]["template"]["metadata"] == {
        "annotations": {"kueue.x-k8s.io/podset-preferred-topology": RACK}
    }


def test_r43_onprem_four_ranks_in_one_rack_preflight_eligible_and_simulate_admitted(
    run: Run, tmp_path: Path
) -> None:
    """Kueue's BestFit: the tightest rack that holds 4 is r08 (7 Ready), not r07 (8 Ready)."""
    config = _onprem(run, tmp_path)
    code, checks = _preflight(run, tmp_path, config, RDMA_RUN)
    assert (code, [c for c, (ok, _) in checks.items() if not ok]) == (0, [])
    assert checks["topology"][1] == (
        "dc.example.org/rack: best domain r08 holds 7 ranks on 7 Ready nodes (1 not Ready, excluded); "
        "headroom 3 (multi-node torchrun: one rank per node)"
    )
    assert checks["quota"][1] == (
        "ClusterQueue taugrid, flavor taugrid-h100-80gb: cpu 384 of 100k, memory 6400Gi of 100Ti, "
        "nvidia.com/gpu 32 of 128, tau.azure.com/torchrun-host-slot 4 of 15, "
        "rdma/rdma_shared_device_a 4 of 15k"
    )
    hosts = [f"gpu-r08-n0{n}" for n in (1, 2, 3, 4)]
    assert _simulated(run, tmp_path, config, RDMA_RUN) == [("llama-rdma", "admitted", hosts, None)]
    assert _racks(hosts) == {"r08"}


def _racks(hosts: list[str]) -> set[str]:
    """The racks the NodeList puts these nodes in (its own labels, not the names)."""
    items = yaml.safe_load((DATA / "onprem-h100-racks.yaml").read_text())["items"]
    return {n["metadata"]["labels"][RACK] for n in items if n["metadata"]["name"] in hosts}


def test_r43_onprem_nine_ranks_fit_no_rack_and_the_message_names_the_largest(
    run: Run, tmp_path: Path
) -> None:
    config = _onprem(run, tmp_path)
    nine = RDMA_RUN.replace("workers: 4", "workers: 9")
    code, checks = _preflight(run, tmp_path, config, nine)
    assert (code, [c for c, (ok, _) in checks.items() if not ok]) == (1, ["topology"])
    assert checks["topology"][1] == (
        "no single dc.example.org/rack holds 9 ranks (multi-node torchrun: one rank per node); the largest, "
        "r07, holds 8 ranks on 8 Ready nodes: lacks 1; tau.azure.com/site dc1 would hold 15, but nothing "
        "falls back to a wider level: set policy.topology to same-site to use it"
    )
    reason = (
        'topology: no dc.example.org/rack domain holds 9 pods: topology "taugrid-gpu-topology" allows to fit '
        "only 8 out of 9 pod(s)"
    )
    assert _simulated(run, tmp_path, config, nine) == [("llama-rdma", "pending", [], reason)]


def test_r43_an_undeclared_level_is_refused_at_its_position_with_the_declared_names(
    run: Run, tmp_path: Path
) -> None:
    config = _onprem(run, tmp_path)
    run_file = tmp_path / "run.yaml"
    run_file.write_text(RDMA_RUN.replace("required: rack", "required: row"))
    expected = (
        f"{run_file}:6:20: error: cluster onprem-h100 declares no topology level row [R43]\n"
        "  hint: name one of its levels: rack\n"
    )
    for verb in ("render", "preflight"):
        result = run(verb, run_file, "-c", config)
        assert (verb, result.exit_code, result.stdout, result.stderr) == (verb, 2, "", expected)


def test_r42_eks_preset_levels_and_a_layer_3_run_with_efa(run: Run, tmp_path: Path) -> None:
    config = _eks(run, tmp_path)
    layer = "topology.k8s.aws/network-node-layer-"
    assert _spec(tmp_path / "out" / "eks-p5" / "topology.yaml") == {
        "levels": _levels(
            "tau.azure.com/site",
            f"{layer}1",
            f"{layer}2",
            f"{layer}3",  # same-network-domain maps here: no tau.azure.com/network-domain level
            "tau.azure.com/accelerator-domain",
            "kubernetes.io/hostname",
        )
    }
    job = _job(run, tmp_path, config, EFA_RUN)
    assert job["spec"]["template"]["metadata"] == {
        "annotations": {"kueue.x-k8s.io/podset-required-topology": f"{layer}3"}
    }
    code, checks = _preflight(run, tmp_path, config, EFA_RUN)
    assert (code, [c for c, (ok, _) in checks.items() if not ok]) == (0, [])
    assert checks["topology"][1] == (
        "topology.k8s.aws/network-node-layer-3: best domain nn-3a7c0e91b5d02f48c6 holds 4 ranks on 4 Ready "
        "nodes; headroom 0 (multi-node torchrun: one rank per node)"
    )
    hosts = [f"ip-10-0-80-1{n}.us-west-2.compute.internal" for n in (1, 2, 3, 4)]
    assert _simulated(run, tmp_path, config, EFA_RUN) == [("llama-efa", "admitted", hosts, None)]


def test_r43_eks_an_undeclared_level_names_the_preset_levels(run: Run, tmp_path: Path) -> None:
    config = _eks(run, tmp_path)
    run_file = tmp_path / "run.yaml"
    run_file.write_text(EFA_RUN.replace("required: layer-3", "required: rack"))
    result = run("preflight", run_file, "-c", config)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"{run_file}:6:20: error: cluster eks-p5 declares no topology level rack [R43]\n"
        "  hint: name one of its levels: layer-1, layer-2, layer-3\n",
    )


def test_r42_kai_topology_aliases_and_grove_domains_take_the_declared_level(run: Run, tmp_path: Path) -> None:
    """KAI takes no extraResources (R44): the same project without that line, on KAI with Grove."""
    project = ONPREM.replace("    extraResources: [rdma/]\n", "    scheduler: kai\n    grove: true\n")
    config = _onprem(run, tmp_path, project)
    out = tmp_path / "out" / "onprem-h100"
    labels = ["tau.azure.com/site", RACK, "tau.azure.com/network-domain", "tau.azure.com/accelerator-domain"]
    names = ["site", "rack", "network-domain", "accelerator-domain"]
    host = "kubernetes.io/hostname"
    assert _spec(out / "topology.yaml") == {
        "levels": [
            *({"alias": n, "nodeLabel": label} for n, label in zip(names, labels, strict=True)),
            {"alias": "hostname", "nodeLabel": host},
        ]
    }
    assert _spec(out / "grove-topology.yaml") == {
        "levels": [
            *({"domain": n, "key": label} for n, label in zip(names, labels, strict=True)),
            {"domain": "host", "key": host},
        ],
        "schedulerTopologyBindings": [
            {"schedulerName": "kai-scheduler", "topologyReference": "taugrid-gpu-topology"}
        ],
    }
    job = _job(run, tmp_path, config, RDMA_RUN.replace(", rdma/rdma_shared_device_a: 1", ""))
    assert job["metadata"]["annotations"] == {
        "kai.scheduler/topology": "taugrid-gpu-topology",
        "kai.scheduler/topology-preferred-placement": host,
        "kai.scheduler/topology-required-placement": RACK,
    }
