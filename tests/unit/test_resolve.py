"""Resolution (SPEC §2): gpu classes (R4), topology levels and domains (R10-R17)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from taugen.core.names import label_value_error
from taugen.resolve.domains import singleton
from taugen.resolve.labels import LEVELS
from tests.support.helpers import cpu_node, gpu_node, inventory, rules
from tests.support.unit import (
    labels_by_node,
    problems_of,
    resolve_project,
    rules_of,
    run_build,
    write_project,
)

NET = "net.unbounded-cloud.io/network-domain"
ACC = "net.unbounded-cloud.io/accelerator-domain"


def _resolve(tmp_path: Path, nodes: list[dict[str, object]], **kwargs: object) -> dict[str, dict[str, str]]:
    inv = inventory(nodes, **kwargs)  # type: ignore[arg-type]
    return labels_by_node(resolve_project(write_project(tmp_path, inv)))


def test_r10_levels_broad_to_narrow() -> None:
    assert LEVELS == (
        "tau.azure.com/site",
        "tau.azure.com/network-domain",
        "tau.azure.com/accelerator-domain",
        "kubernetes.io/hostname",
    )


def test_r4_unclassified_gpu_nodes_all_listed(tmp_path: Path) -> None:
    """R4: every GPU node without a gpu-class is an error naming node and vmSize (fail closed)."""
    inv = inventory(
        [
            gpu_node("b200-0", vm_size="Standard_ND96isr_B200_v6"),
            gpu_node("h200-0"),
            gpu_node("mi300-0", vm_size="Standard_ND96isr_MI300X_v5", gpus=8),
            cpu_node("cpu-0", vm_size="Standard_Unknown_CPU"),
        ]
    )
    project = write_project(tmp_path, inv)
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R4", "R4"]
    assert "b200-0" in problems[0].message and "Standard_ND96isr_B200_v6" in problems[0].message
    assert "mi300-0" in problems[1].message and "Standard_ND96isr_MI300X_v5" in problems[1].message
    assert all(p.path.name == "inventory.yaml" and p.line > 0 for p in problems)
    assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()


def test_r4_series_without_class_is_still_unclassified(tmp_path: Path) -> None:
    """R4: a rule that gives only a gpu-series does not classify a GPU node."""
    project = write_project(
        tmp_path,
        inventory([gpu_node("x-0", vm_size="Standard_X")]),
        rules((["Standard_X"], {"kueue.azure.com/gpu-series": "x-series"})),
    )
    assert rules_of(problems_of(lambda: run_build(project))) == ["R4"]


def test_r11_r12_r13_gpu_node_with_provider_domains(tmp_path: Path) -> None:
    """R11-R13: site, provider fabric and NVLink island; a shared fabric adds infiniband."""
    labels = _resolve(tmp_path, [gpu_node("h200-0", labels={NET: "ib-fabric-3", ACC: "rack-07"})])
    assert labels["h200-0"] == {
        "kueue.azure.com/gpu-series": "nd-h200-v5",
        "tau.azure.com/accelerator-domain": "rack-07",
        "tau.azure.com/gpu-class": "h200-141gb",
        "tau.azure.com/infiniband": "true",
        "tau.azure.com/network-domain": "ib-fabric-3",
        "tau.azure.com/site": "eastus",
    }


def test_r12_r13_no_provider_labels_give_singletons_and_no_infiniband(tmp_path: Path) -> None:
    """R12/R13: same GPU model never implies a shared fabric or NVLink island."""
    labels = _resolve(tmp_path, [gpu_node("h200-0"), gpu_node("h200-1")])
    assert labels["h200-0"] == {
        "kueue.azure.com/gpu-series": "nd-h200-v5",
        "tau.azure.com/accelerator-domain": "singleton-h200-0",
        "tau.azure.com/gpu-class": "h200-141gb",
        "tau.azure.com/network-domain": "singleton-h200-0",
        "tau.azure.com/site": "eastus",
    }
    assert labels["h200-1"]["tau.azure.com/network-domain"] == "singleton-h200-1"


def test_r13_accelerator_domain_without_fabric(tmp_path: Path) -> None:
    """R12/R13: an island label alone gives no fabric: singleton network domain, no infiniband."""
    labels = _resolve(tmp_path, [gpu_node("g-0", labels={ACC: "rack-1"})])["g-0"]
    assert (labels["tau.azure.com/accelerator-domain"], labels["tau.azure.com/network-domain"]) == (
        "rack-1",
        "singleton-g-0",
    )
    assert "tau.azure.com/infiniband" not in labels


def test_r11_node_site_overrides_inventory_default(tmp_path: Path) -> None:
    labels = _resolve(tmp_path, [gpu_node("a", site="westus3"), gpu_node("b")], site="eastus")
    assert (labels["a"]["tau.azure.com/site"], labels["b"]["tau.azure.com/site"]) == ("westus3", "eastus")


def test_r11_no_site_and_no_default_is_an_error(tmp_path: Path) -> None:
    """R11: a GPU node with no site and no inventory default is an error naming the node."""
    project = write_project(
        tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1", site="eu")], site=None)
    )
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R11"]
    assert "h200-0" in problems[0].message


def test_r11_cpu_node_needs_no_site(tmp_path: Path) -> None:
    """R11/R17: only GPU-class nodes get topology labels, so a CPU node without a site is fine."""
    labels = _resolve(tmp_path, [gpu_node("h-0", site="eu"), cpu_node("cpu-0")], site=None)
    assert (labels["h-0"]["tau.azure.com/site"], labels["cpu-0"]) == ("eu", {})


def test_r14_singleton_plain_form() -> None:
    assert singleton("aks-ndv4-12345678-vmss000000") == "singleton-aks-ndv4-12345678-vmss000000"
    assert singleton("node.example.com") == "singleton-node.example.com"


def test_r14_singleton_longest_plain_form_is_63_characters() -> None:
    host = "h" * 53
    assert singleton(host) == "singleton-" + host


def test_r14_singleton_hashed_form_for_long_hostnames() -> None:
    """R14: singleton-<first 44 chars>-<first 8 hex of sha256(hostname)>, at most 63 characters."""
    host = "a" * 54
    digest = hashlib.sha256(host.encode()).hexdigest()[:8]
    assert singleton(host) == f"singleton-{'a' * 44}-{digest}"
    assert len(singleton(host)) == 63


@pytest.mark.parametrize("cut", ["-", ".", "-.-"])
def test_r14_singleton_hashed_form_strips_trailing_non_alphanumerics(cut: str) -> None:
    host = "x" * (44 - len(cut)) + cut + "y" * 30
    digest = hashlib.sha256(host.encode()).hexdigest()[:8]
    value = singleton(host)
    assert value == f"singleton-{'x' * (44 - len(cut))}-{digest}"
    assert label_value_error(value) is None


def test_r14_singletons_distinct_for_hostnames_sharing_a_long_prefix(tmp_path: Path) -> None:
    """R14: deterministic and distinct per node, even when 44-character prefixes collide."""
    names = ["n" * 60 + "-0", "n" * 60 + "-1"]
    labels = _resolve(tmp_path, [gpu_node(n) for n in names])
    values = [labels[n]["tau.azure.com/accelerator-domain"] for n in names]
    assert values == [singleton(n) for n in names]
    assert values[0] != values[1]
    assert all(len(v) <= 63 and label_value_error(v) is None for v in values)


def test_r14_singleton_uses_the_hostname_label(tmp_path: Path) -> None:
    """R14: the singleton names the host, i.e. the kubernetes.io/hostname TAS level."""
    labels = _resolve(tmp_path, [gpu_node("node-a", labels={"kubernetes.io/hostname": "host-a"})])
    assert labels["node-a"]["tau.azure.com/network-domain"] == "singleton-host-a"


@pytest.mark.parametrize(
    ("node", "named"),
    [
        (gpu_node("h-0", labels={NET: "fabric 3"}), NET),
        (gpu_node("h-0", labels={ACC: "-rack-"}), ACC),
        (gpu_node("h-0", labels={NET: "f" * 64}), NET),
    ],
    ids=["space", "dash-ends", "too-long"],
)
def test_r15_invalid_provider_value_names_node_label_and_value(
    tmp_path: Path, node: dict[str, object], named: str
) -> None:
    """R15: an invalid provider label value is an error naming node, label and value."""
    project = write_project(tmp_path, inventory([node]))
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R15"]
    value = node["labels"][named]  # type: ignore[index]
    assert "h-0" in problems[0].message and named in problems[0].message and value in problems[0].message


def test_r15_invalid_hostname_never_reaches_an_emitted_label(tmp_path: Path) -> None:
    """R15: every emitted label value is valid; a bad kubernetes.io/hostname value is an error.

    The singleton domains are built from the hostname (R14), so an invalid hostname label in
    the inventory must be refused, not copied into tau.azure.com/network-domain.
    """
    project = write_project(
        tmp_path, inventory([gpu_node("h-0", labels={"kubernetes.io/hostname": "Bad/Host"})])
    )
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R15"]
    assert "h-0" in problems[0].message and "Bad/Host" in problems[0].message


def test_r15_invalid_site_is_an_error(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0", site="east us")]))
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R15"]
    assert "east us" in problems[0].message


def test_r15_invalid_rule_label_value_is_an_error(tmp_path: Path) -> None:
    project = write_project(tmp_path, rules_doc=rules((["Standard_Q"], {"example.com/pool": "big pool"})))
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("rules.yaml", "R15")]


def test_r15_invalid_rule_label_key_is_an_error(tmp_path: Path) -> None:
    project = write_project(tmp_path, rules_doc=rules((["Standard_Q"], {"example.com/bad key": "v"})))
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("rules.yaml", "R15")]
    assert "bad key" in problems[0].message


def test_r16_accelerator_domain_across_network_domains_is_an_error(tmp_path: Path) -> None:
    """R16: one island in two fabrics names the domain and the nodes on each side."""
    nodes = [
        gpu_node("g-0", labels={NET: "fab-a", ACC: "rack-1"}),
        gpu_node("g-1", labels={NET: "fab-a", ACC: "rack-1"}),
        gpu_node("g-2", labels={NET: "fab-b", ACC: "rack-1"}),
    ]
    project = write_project(tmp_path, inventory(nodes))
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R16"]
    message = problems[0].message
    assert "rack-1" in message
    assert "eastus/fab-a: g-0, g-1" in message and "eastus/fab-b: g-2" in message
    assert not (tmp_path / "out").exists()


def test_r16_accelerator_domain_across_sites_is_an_error(tmp_path: Path) -> None:
    nodes = [
        gpu_node("g-0", site="east", labels={NET: "fab", ACC: "rack-1"}),
        gpu_node("g-1", site="west", labels={NET: "fab", ACC: "rack-1"}),
    ]
    problems = problems_of(lambda: run_build(write_project(tmp_path, inventory(nodes))))
    assert rules_of(problems) == ["R16"]
    assert "g-0" in problems[0].message and "g-1" in problems[0].message


def test_r16_island_without_fabric_on_two_hosts_is_an_error(tmp_path: Path) -> None:
    """R16: without a provider fabric each host is its own network domain (R12): the island splits."""
    nodes = [gpu_node("g-0", labels={ACC: "rack-1"}), gpu_node("g-1", labels={ACC: "rack-1"})]
    problems = problems_of(lambda: run_build(write_project(tmp_path, inventory(nodes))))
    assert rules_of(problems) == ["R16"]


def test_r16_same_fabric_name_in_two_sites_is_two_fabrics(tmp_path: Path) -> None:
    """R16: network-domain values are scoped by site; reusing a fabric name is not an error."""
    nodes = [
        gpu_node("g-0", site="east", labels={NET: "ib-1", ACC: "rack-e"}),
        gpu_node("g-1", site="west", labels={NET: "ib-1", ACC: "rack-w"}),
    ]
    labels = _resolve(tmp_path, nodes)
    assert [(labels[n]["tau.azure.com/site"], labels[n]["tau.azure.com/network-domain"]) for n in labels] == [
        ("east", "ib-1"),
        ("west", "ib-1"),
    ]


def test_r16_island_spanning_hosts_in_one_fabric_is_valid(tmp_path: Path) -> None:
    nodes = [gpu_node(f"g-{i}", labels={NET: "ib-1", ACC: "nvl72-rack-07"}) for i in range(3)]
    labels = _resolve(tmp_path, nodes)
    assert {labels[n]["tau.azure.com/accelerator-domain"] for n in labels} == {"nvl72-rack-07"}


def test_r17_every_gpu_node_gets_all_levels(tmp_path: Path) -> None:
    """R17: every node with a gpu-class has site, network-domain and accelerator-domain labels."""
    nodes = [
        gpu_node("a", labels={NET: "ib", ACC: "r1"}),
        gpu_node("b", labels={NET: "ib"}),
        gpu_node("c"),
        gpu_node("d", ready=False),
        gpu_node("e", vm_size="Standard_NC24ads_A100_v4", gpus=1),
    ]
    labels = _resolve(tmp_path, nodes)
    levels = set(LEVELS[:3])
    assert {n: levels <= set(v) and v["tau.azure.com/gpu-class"] != "" for n, v in labels.items()} == {
        n: True for n in "abcde"
    }


def test_r17_topology_labels_only_on_gpu_class_nodes(tmp_path: Path) -> None:
    """R17: a CPU node gets rule labels only, even with provider domain labels; no hostname label."""
    project = write_project(
        tmp_path,
        inventory(
            [
                gpu_node("h200-0"),
                cpu_node("sys-0", vm_size="Standard_D8s_v5") | {"labels": {NET: "ib-1", ACC: "r"}},
                cpu_node("other-0"),
            ]
        ),
        rules((["Standard_D8s_v5"], {"node-pool.example.com/role": "system"})),
    )
    labels = labels_by_node(resolve_project(project))
    assert labels["sys-0"] == {"node-pool.example.com/role": "system"}
    assert labels["other-0"] == {}
    assert "kubernetes.io/hostname" not in labels["h200-0"]


@pytest.mark.parametrize(
    "key",
    [
        "tau.azure.com/site",
        "tau.azure.com/network-domain",
        "tau.azure.com/accelerator-domain",
        "tau.azure.com/infiniband",
        "kubernetes.io/hostname",
    ],
)
def test_r17_rule_cannot_set_a_computed_label(tmp_path: Path, key: str) -> None:
    project = write_project(tmp_path, rules_doc=rules((["Standard_Q"], {key: "x"})))
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("rules.yaml", "R17")]


def test_r17_gpu_class_node_without_gpus_still_gets_levels(tmp_path: Path) -> None:
    """R17: 'every node that gets a gpu-class' — also one whose device plugin reports 0 GPUs."""
    labels = _resolve(tmp_path, [gpu_node("h200-0", gpus=0)])["h200-0"]
    assert set(LEVELS[:3]) <= set(labels)
