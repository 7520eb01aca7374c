"""`taugen explain` (issue 11): provenance of every label a node gets (R2, R11-R14, R26, R27)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taugen.commands.explain.gpu_class import ClassExplanation, ClassNode, explain_class
from taugen.commands.explain.node import MANAGED_BY_ORIGIN, LabelOrigin, NodeExplanation, explain_node
from taugen.commands.explain.render import class_json, class_text, node_json, node_text
from taugen.context.cluster import ClusterView
from taugen.context.session import load_view
from taugen.resolve.counts import DomainCount
from tests.support.unit import problems_of
from tests.support.views import CLUSTERS, GOLDEN, PROJECT

REGENERATE = os.environ.get("TAUGEN_REGENERATE_GOLDEN") == "1"
NO_FABRIC = (
    "the node has no net.unbounded-cloud.io/network-domain label, and the same GPU model never "
    "implies a shared fabric"
)
REGION = "the node's topology.kubernetes.io/region label"
NO_ISLAND = (
    "the node has no net.unbounded-cloud.io/accelerator-domain label, and the same GPU model never "
    "implies a shared NVLink island"
)
H200 = "vmSizes Standard_ND96isr_H200_v5"
A100 = "vmSizes Standard_ND96amsr_A100_v4"
D8 = "vmSizes Standard_D8s_v5"
LONG = "a100-with-a-hostname-far-too-long-for-a-singleton-label-value-0"
HASHED = "singleton-a100-with-a-hostname-far-too-long-for-a-sing-872e5211"


@pytest.fixture(scope="module", params=CLUSTERS)
def view(request: pytest.FixtureRequest) -> ClusterView:
    return load_view(PROJECT, request.param)


def _site(view: ClusterView, default: bool = True) -> LabelOrigin:
    if view.name == "kube":
        return LabelOrigin(
            "tau.azure.com/site", "eastus", "site", "the node's topology.kubernetes.io/region label", "R11"
        )
    origin = "the inventory's default site (`site:` at the top)" if default else "the node's `site:`"
    return LabelOrigin("tau.azure.com/site", "eastus", "site", origin, "R11")


def _fabric(value: str) -> tuple[LabelOrigin, LabelOrigin]:
    provider = "net.unbounded-cloud.io/network-domain"
    return (
        LabelOrigin("tau.azure.com/infiniband", "true", "provider label", provider, "R12"),
        LabelOrigin("tau.azure.com/network-domain", value, "provider label", provider, "R12"),
    )


def test_provider_domains_and_a_rule_that_overrides_a_built_in_series(view: ClusterView) -> None:
    """R2: the extra rule's gpu-series wins over the built-in one; R12/R13: provider labels."""
    ready = {
        "native": "Ready: the inventory's default (no `ready:` on the node)",
        "kube": "Ready: condition Ready is True and the node is schedulable",
    }[view.name]
    assert explain_node(view, "h200-0") == NodeExplanation(
        view.name,
        "h200-0",
        "Standard_ND96isr_H200_v5",
        8,
        True,
        ready,
        "h200-141gb",
        (
            MANAGED_BY_ORIGIN,
            LabelOrigin(
                "kueue.azure.com/gpu-series",
                "nd-h200-v5-pool",
                "rule",
                f"rules.yaml:6:7 ({H200})",
                "R2",
                (f"built-in rule {H200}: nd-h200-v5",),
            ),
            LabelOrigin(
                "tau.azure.com/accelerator-domain",
                "rack-1",
                "provider label",
                "net.unbounded-cloud.io/accelerator-domain",
                "R13",
            ),
            LabelOrigin("tau.azure.com/gpu-class", "h200-141gb", "built-in rule", H200, "R2"),
            *_fabric("fab-1"),
            _site(view),
        ),
        "h200-0",
        "taugrid-h200-141gb",
    )


def test_not_ready_node_keeps_quota_loses_its_slot(view: ClusterView) -> None:
    """R26: its GPUs count Ready or not; R27: no slot. Native `ready: false`, kube cordoned."""
    found = explain_node(view, "h200-1")
    reason = {
        "native": "not Ready: `ready: false` in the inventory",
        "kube": "not Ready: cordoned (spec.unschedulable: true)",
    }[view.name]
    assert (found.ready, found.ready_reason, found.counts_toward_quota, found.counts_toward_slots) == (
        False,
        reason,
        True,
        False,
    )
    assert found.labels[2] == LabelOrigin(
        "tau.azure.com/accelerator-domain", "singleton-h200-1", "singleton", NO_ISLAND, "R14"
    )


def test_singleton_domains_without_provider_labels(view: ClusterView) -> None:
    """R12-R14: no provider labels, so a singleton fabric and island; the site from where it was set."""
    found = explain_node(view, "a100-0")
    assert found.labels == (
        MANAGED_BY_ORIGIN,
        LabelOrigin("kueue.azure.com/gpu-series", "ndm-a100-v4", "built-in rule", A100, "R2"),
        LabelOrigin("tau.azure.com/accelerator-domain", "singleton-a100-0", "singleton", NO_ISLAND, "R14"),
        LabelOrigin("tau.azure.com/gpu-class", "a100-80gb", "built-in rule", A100, "R2"),
        LabelOrigin("tau.azure.com/network-domain", "singleton-a100-0", "singleton", NO_FABRIC, "R14"),
        _site(view, default=False),
    )
    if view.name == "kube":  # a Ready condition that is False
        assert found.ready_reason == "not Ready: condition Ready is not True"


def test_hashed_singleton_says_why(view: ClusterView) -> None:
    """R14: singleton-<hostname> longer than 63 characters is shortened and hashed."""
    why = f"; singleton-{LONG} is not a valid label value, so it is shortened and hashed"
    labels = {o.key: o for o in explain_node(view, LONG).labels}
    assert labels["tau.azure.com/network-domain"] == LabelOrigin(
        "tau.azure.com/network-domain", HASHED, "singleton", NO_FABRIC + why, "R14"
    )


def test_rule_label_on_a_cpu_node_and_a_node_without_labels(view: ClusterView) -> None:
    """R17: a rule label but no gpu-class gives no topology; no flavor but the CPU one (R23)."""
    system = explain_node(view, "sys-0")
    assert (system.gpu_class, system.hostname, system.flavor, system.labels) == (
        None,
        None,
        "taugrid-default-cpu",
        (
            MANAGED_BY_ORIGIN,
            LabelOrigin(
                "node-pool.example.com/role",
                "system",
                "rule",
                "rules.yaml:17:7 (vmSizes Standard_D8s_v5)",
                "R2",
            ),
        ),
    )
    assert explain_node(view, "cpu-0").labels == ()


def test_unknown_node_is_a_usage_error(view: ClusterView) -> None:
    (problem,) = problems_of(lambda: explain_node(view, "gb200-9"))
    assert (problem.rule, problem.message, problem.hint) == (
        "usage",
        f"node gb200-9 is not in cluster {view.name}'s inventory",
        "did you mean gb200-0?",
    )


def test_explain_class(view: ClusterView) -> None:
    """R26 quota, R27 Ready slots, R16 domains; no lock in the fixture, so no high-water mark."""
    nodes = (
        ClassNode("h200-0", True, 8, "fab-1", "rack-1"),
        ClassNode("h200-1", False, 8, "fab-1", "singleton-h200-1"),
    )
    domains = (
        DomainCount("tau.azure.com/site", ("eastus",), 2, 16, 1),
        DomainCount("tau.azure.com/network-domain", ("eastus", "fab-1"), 2, 16, 1),
        DomainCount("tau.azure.com/accelerator-domain", ("eastus", "fab-1", "rack-1"), 1, 8, 1),
        DomainCount("tau.azure.com/accelerator-domain", ("eastus", "fab-1", "singleton-h200-1"), 1, 8, 0),
    )
    assert explain_class(view, "h200-141gb") == ClassExplanation(
        view.name, "h200-141gb", "taugrid-h200-141gb", nodes, 16, 1, 16, None, domains
    )


def test_unknown_class_lists_the_classes(view: ClusterView) -> None:
    (problem,) = problems_of(lambda: explain_class(view, "b200"))
    assert problem.hint == "classes: a100-80gb, gb200-186gb, h200-141gb"


def _outputs(view: ClusterView) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in view.resolved.nodes:
        explained = explain_node(view, node.name)
        found[f"node-{node.name}.txt"] = node_text(explained)
        found[f"node-{node.name}.json"] = node_json(explained)
    for quota in view.quotas:
        explained_class = explain_class(view, quota.gpu_class)
        found[f"class-{quota.gpu_class}.txt"] = class_text(explained_class)
        found[f"class-{quota.gpu_class}.json"] = class_json(explained_class)
    return found


def test_text_and_json_outputs_match_the_golden_files(view: ClusterView) -> None:
    """Whole outputs, every node and class of both forms (regenerate: TAUGEN_REGENERATE_GOLDEN=1)."""
    folder = GOLDEN / view.name
    outputs = _outputs(view)
    if REGENERATE:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in outputs.items():
            (folder / name).write_text(text)
    assert {p.name: p.read_text() for p in sorted(Path(folder).iterdir())} == outputs
