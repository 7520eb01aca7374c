"""Node-label backends (R29): `node` writes partial Nodes, `nfd` NodeFeatureRules that set the
same labels on the same nodes; both in one file per gpu class."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from jsonschema import Draft202012Validator

from taugen.api.nfd import NFD_API, SCHEMA_FILE, nfd_schema_files
from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels import NODE_LABEL_BACKENDS
from taugen.compile.nodelabels.nfd import NfdBackend
from taugen.compile.nodelabels.node import NodeBackend
from taugen.core.errors import InputError
from taugen.load.project import load_cluster_inputs, load_project
from taugen.resolve.cluster import ResolvedCluster, resolve
from taugen.schedulers.kueue.model import KueueCluster
from tests.support.helpers import cpu_node, gpu_node, inventory, read_objects, rules
from tests.support.unit import resolve_project, run_build, write_project

REPO = Path(__file__).resolve().parents[2]
NET, ACC = "net.unbounded-cloud.io/network-domain", "net.unbounded-cloud.io/accelerator-domain"

NET_LABEL = "tau.azure.com/network-domain"


def _example_clusters() -> list[ResolvedCluster]:
    loaded = load_project(REPO / "taugen.yaml")
    return [resolve(load_cluster_inputs(loaded, c)) for c in loaded.project.clusters]


def _node_backend_labels(manifests: Sequence[Manifest]) -> dict[str, dict[str, str]]:
    return {m.obj["metadata"]["name"]: m.obj["metadata"]["labels"] for m in manifests}


def _nfd_labels(manifests: Sequence[Manifest]) -> dict[str, dict[str, str]]:
    """What nfd-master sets, node by node: each rule's labels on the nodes its nodename matches."""
    found: dict[str, dict[str, str]] = {}
    for manifest in manifests:
        for rule in manifest.obj["spec"]["rules"]:
            (term,) = rule["matchFeatures"]
            assert term["feature"] == "system.name"
            expression = term["matchExpressions"]["nodename"]
            assert expression["op"] == "In"
            for name in expression["value"]:
                assert name not in found, f"{name} matched by two rules"
                found[name] = dict(rule["labels"])
    return found


def test_registry_lists_exactly_the_project_choices() -> None:
    assert sorted(NODE_LABEL_BACKENDS) == sorted(get_args(KueueCluster.model_fields["nodeLabels"].annotation))
    assert all(name == backend.name for name, backend in NODE_LABEL_BACKENDS.items())
    assert KueueCluster.model_fields["nodeLabels"].default == "node"


@pytest.mark.parametrize("index", [0, 1], ids=["eastus-prod", "westus3-dev"])
def test_nfd_sets_the_same_labels_on_the_same_nodes_as_node(index: int) -> None:
    cluster = _example_clusters()[index]
    expected = _node_backend_labels(NodeBackend().manifests(cluster.nodes))
    assert len(expected) >= 2
    assert _nfd_labels(NfdBackend().manifests(cluster.nodes)) == expected


@pytest.mark.parametrize("index", [0, 1], ids=["eastus-prod", "westus3-dev"])
def test_both_backends_use_one_file_per_gpu_class_and_network_domain(index: int) -> None:
    cluster = _example_clusters()[index]
    node_files = {m.file for m in NodeBackend().manifests(cluster.nodes)}
    nfd = NfdBackend().manifests(cluster.nodes)
    assert sorted(m.file for m in nfd) == sorted(node_files)  # one NodeFeatureRule per file
    for manifest in nfd:
        assert {_expected_file(labels) for labels in _nfd_labels([manifest]).values()} == {manifest.file}


def _expected_file(labels: dict[str, str]) -> str:
    """nodelabels/base.py's layout: class and network domain; singleton domains share a file."""
    gpu_class, domain = labels.get("tau.azure.com/gpu-class"), labels.get(NET_LABEL, "")
    if gpu_class is None:
        return "nodes/_no-gpu-class.yaml"
    return f"nodes/{gpu_class}/{'_single-hosts' if domain.startswith('singleton-') else domain}.yaml"


def test_nfd_groups_nodes_with_the_same_labels_into_one_rule(tmp_path: Path) -> None:
    rack = {NET: "ib-1", ACC: "rack-1"}
    nodes = [gpu_node("h-1", labels=rack), gpu_node("h-0", labels=rack), cpu_node("sys-0")]
    cluster = resolve_project(write_project(tmp_path, inventory(nodes)))
    (manifest,) = NfdBackend().manifests(cluster.nodes)
    labels = {
        "kueue.azure.com/gpu-series": "nd-h200-v5",
        "tau.azure.com/accelerator-domain": "rack-1",
        "tau.azure.com/gpu-class": "h200-141gb",
        "tau.azure.com/infiniband": "true",
        "tau.azure.com/network-domain": "ib-1",
        "tau.azure.com/site": "eastus",
    }
    assert manifest == Manifest(
        "nodes/h200-141gb/ib-1.yaml",
        {
            "apiVersion": NFD_API,
            "kind": "NodeFeatureRule",
            "metadata": {
                "name": "taugen-labels-h200-141gb-ib-1",
                "annotations": {"argocd.argoproj.io/sync-options": "SkipDryRunOnMissingResource=true"},
            },
            "spec": {
                "rules": [
                    {
                        "name": manifest.obj["spec"]["rules"][0]["name"],
                        "labels": labels,
                        "matchFeatures": [
                            {
                                "feature": "system.name",
                                "matchExpressions": {"nodename": {"op": "In", "value": ["h-0", "h-1"]}},
                            }
                        ],
                    }
                ]
            },
        },
    )
    assert manifest.obj["spec"]["rules"][0]["name"].startswith("taugen-")


def test_nfd_rule_names_follow_the_labels_not_the_members(tmp_path: Path) -> None:
    rack = {NET: "ib-1", ACC: "rack-1"}
    one = resolve_project(write_project(tmp_path / "a", inventory([gpu_node("h-0", labels=rack)])))
    two = resolve_project(
        write_project(tmp_path / "b", inventory([gpu_node("h-0", labels=rack), gpu_node("h-1", labels=rack)]))
    )
    (first,) = NfdBackend().manifests(one.nodes)
    (second,) = NfdBackend().manifests(two.nodes)
    assert first.obj["spec"]["rules"][0]["name"] == second.obj["spec"]["rules"][0]["name"]


@pytest.mark.parametrize("key", ["node.kubernetes.io/pool", "feature.node.kubernetes.io/gpu"])
def test_a_rule_label_under_kubernetes_io_is_refused_before_nfd(tmp_path: Path, key: str) -> None:
    """Issue 17 item 8: rules are untrusted; kubernetes.io and its subdomains are reserved, NFD's
    feature namespace included (a rule could claim hardware the node lacks)."""
    doc = rules((["Standard_ND96isr_H200_v5"], {key: "gpu"}))
    with pytest.raises(InputError) as info:
        resolve_project(write_project(tmp_path, inventory([gpu_node("h-0")]), doc))
    assert [(p.rule, p.message) for p in info.value.problems] == [
        ("R17", f"label {key} is in the reserved namespace kubernetes.io")
    ]


def _nfd_example(tmp_path: Path) -> Path:
    """The repository's example project with every cluster on nodeLabels: nfd."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    project = yaml.safe_load((REPO / "taugen.yaml").read_text())
    for cluster in project["clusters"]:
        cluster["nodeLabels"] = "nfd"
    (tmp_path / "taugen.yaml").write_text(yaml.safe_dump(project))
    return tmp_path / "taugen.yaml"


def test_an_nfd_tree_passes_the_build_gate_and_validate(tmp_path: Path) -> None:
    project = _nfd_example(tmp_path)
    run_build(project)  # the gate: raises FoundProblems when the tree does not validate
    for cluster in ("eastus-prod", "westus3-dev"):
        nodes = tmp_path / "out" / cluster / "nodes"
        assert sorted(p.name for p in nodes.iterdir()) == sorted(
            p.name for p in (REPO / "out" / cluster / "nodes").iterdir()
        )
        kinds = {k.split("/")[0] for k in read_objects(tmp_path / "out" / cluster)}
        assert "NodeFeatureRule" in kinds and "Node" not in kinds
    report = validate_paths(ValidateOptions((tmp_path / "out",), project, (), "1.33"))
    assert report.valid
    assert [
        f for f in report.findings if f.problem.rule == "flavor-nodes"
    ] == []  # the rules carry the classes


def test_nodefeaturerule_waves_before_the_flavors(tmp_path: Path) -> None:
    run_build(_nfd_example(tmp_path))
    [file, *_] = sorted((tmp_path / "out" / "eastus-prod" / "nodes").glob("h200-141gb*/nodes.yaml"))
    (obj,) = [d for d in yaml.safe_load_all(file.read_text()) if d]
    assert obj["metadata"]["annotations"]["argocd.argoproj.io/sync-wave"] == "-2"
    assert obj["metadata"]["labels"] == {"app.kubernetes.io/managed-by": "taugen"}


# --- the NodeFeatureRule schema taugen validates against -----------------------------------


def test_committed_nfd_schema_is_the_generated_one() -> None:
    generated = nfd_schema_files()
    assert list(generated) == [SCHEMA_FILE]
    committed = (REPO / "schemas" / SCHEMA_FILE).read_bytes()
    assert committed == generated[SCHEMA_FILE], "regenerate with `taugen schema --out schemas`"


def _schema_errors(doc: Any) -> list[str]:
    schema = json.loads((REPO / "schemas" / SCHEMA_FILE).read_text())
    Draft202012Validator.check_schema(schema)
    return sorted(e.message for e in Draft202012Validator(schema).iter_errors(doc))


GOOD = {
    "apiVersion": NFD_API,
    "kind": "NodeFeatureRule",
    "metadata": {"name": "r"},
    "spec": {
        "rules": [
            {
                "name": "x",
                "labels": {"vendor.io/x": "true"},
                "matchFeatures": [
                    {"feature": "kernel.version", "matchExpressions": {"major": {"op": "Gt", "value": ["4"]}}}
                ],
                "matchAny": [
                    {
                        "matchFeatures": [
                            {"feature": "cpu.cpuid", "matchName": {"op": "InRegexp", "value": ["^AVX"]}}
                        ]
                    }
                ],
                "taints": [{"key": "vendor.io/t", "effect": "NoSchedule"}],
            }
        ]
    },
}


def test_nfd_schema_accepts_the_rule_format() -> None:
    assert _schema_errors(GOOD) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["spec"]["rules"][0].update(lables={}),
            "Additional properties are not allowed ('lables' was unexpected)",
        ),
        (lambda d: d["spec"]["rules"][0].pop("name"), "'name' is a required property"),
        (
            lambda d: d["spec"]["rules"][0]["matchFeatures"][0]["matchExpressions"]["major"].update(op="Gte"),
            "'Gte' is not one of",
        ),
        (
            lambda d: d["metadata"].update(namespace="x"),
            "Additional properties are not allowed ('namespace' was unexpected)",
        ),
        (lambda d: d.pop("spec"), "'spec' is a required property"),
    ],
    ids=["unknown-field", "rule-name", "operator", "cluster-scoped", "spec"],
)
def test_nfd_schema_rejects(change: Any, message: str) -> None:
    doc = json.loads(json.dumps(GOOD))
    change(doc)
    found = _schema_errors(doc)
    assert len(found) == 1 and found[0].startswith(message), found
