"""G5: every NodeFeatureRule of an nfd tree has its own name (one per file, more when a file's
rules pass G2's 262,144 bytes), valid and the same in every build."""

from __future__ import annotations

from pathlib import Path

from taugen.compile.nodelabels.nfd import MAX_OBJECT_BYTES, rule_object_name, rule_objects
from taugen.context.node_labels import node_labels
from taugen.core.names import dns1123_subdomain_error, subdomain_name
from tests.support.helpers import gpu_node, inventory
from tests.support.tree import example_project, json_bytes, kustomize_errors, shared_identities, tree_objects
from tests.support.unit import resolve_project, run_build, write_project

NET, ACC = "net.unbounded-cloud.io/network-domain", "net.unbounded-cloud.io/accelerator-domain"


def test_the_example_on_nfd_has_no_two_objects_of_one_name(tmp_path: Path) -> None:
    run_build(example_project(tmp_path, "nfd"))
    for folder in sorted(p for p in (tmp_path / "out").iterdir() if not p.name.startswith("_")):
        rules = [o for _, o in tree_objects(folder) if o["kind"] == "NodeFeatureRule"]
        # fleet-hub, the CPU-only MultiKueue manager (§11), has no node to label and no GPU to slot
        assert len(rules) >= 2 or (folder.name == "fleet-hub" and not rules), folder.name
        assert shared_identities(folder) == {}, folder.name
        assert all(dns1123_subdomain_error(o["metadata"]["name"]) is None for o in rules)
        assert kustomize_errors(folder) is None


def test_each_file_names_its_rule_after_class_and_network_domain() -> None:
    assert rule_object_name("nodes/h100-80gb/ib-fabric-1.yaml") == "taugen-labels-h100-80gb-ib-fabric-1"
    assert rule_object_name("nodes/_no-gpu-class.yaml") == "taugen-labels-no-gpu-class"
    assert rule_object_name("nodes/h100-80gb.yaml") == "taugen-labels-h100-80gb"
    single = rule_object_name("nodes/h100-80gb/_single-hosts.yaml")  # `_` is not in a name
    assert single.startswith("taugen-labels-h100-80gb-single-hosts-") and len(single) == 45
    assert single == subdomain_name("taugen-labels-h100-80gb-_single-hosts")  # the same every build
    assert single != rule_object_name("nodes/h100-80gb/single-hosts.yaml")  # a domain of that name


def test_long_names_are_shortened_with_a_digest() -> None:
    long = f"nodes/{'g' * 63}/{'d' * 63}.{'e' * 63}.{'f' * 63}.yaml"
    name = rule_object_name(long)
    assert len(name) <= 253 and dns1123_subdomain_error(name) is None
    assert name != rule_object_name(long.replace("f.yaml", "g.yaml"))


def test_names_that_meet_across_the_dash_get_the_file_digest(tmp_path: Path) -> None:
    cluster = resolve_project(
        write_project(tmp_path, inventory([gpu_node("h-0", labels={NET: "ib-1", ACC: "r-1"})]))
    )
    (node,) = [n for n in cluster.nodes if n.gpu_class]
    made = rule_objects({"nodes/a/b-c.yaml": [node], "nodes/a-b/c.yaml": [node]}, MAX_OBJECT_BYTES)
    names = [m.obj["metadata"]["name"] for m in made]
    assert len(set(names)) == 2 and all(n.startswith("taugen-labels-a-b-c-") for n in names)


def test_a_large_domain_is_split_into_objects_under_the_budget(tmp_path: Path) -> None:
    """One fabric's 600 nodes, in racks of 3 and one rack of 300: with a 4 KB budget the file's
    rules take several objects, the big rack's names several rules; nfd sets the same labels."""
    nodes = [gpu_node(f"gpu-node-{i:04}", labels={NET: "ib-1", ACC: f"rack-{i // 3}"}) for i in range(300)]
    nodes += [gpu_node(f"gpu-node-big-{i:04}", labels={NET: "ib-1", ACC: "rack-big"}) for i in range(300)]
    cluster = resolve_project(write_project(tmp_path, inventory(nodes)))
    labelled = [n for n in cluster.nodes if n.labels]
    budget = 4096
    made = rule_objects({"nodes/h200-141gb/ib-1.yaml": labelled}, budget)
    names = [m.obj["metadata"]["name"] for m in made]
    assert len(made) > 5 and len(set(names)) == len(made)
    assert names[:2] == ["taugen-labels-h200-141gb-ib-1", "taugen-labels-h200-141gb-ib-1-2"]
    assert all(json_bytes(m.obj["spec"]["rules"]) <= budget for m in made)
    assert {m.file for m in made} == {"nodes/h200-141gb/ib-1.yaml"}
    rule_names = [r["name"] for m in made for r in m.obj["spec"]["rules"]]
    assert len(set(rule_names)) == len(rule_names)  # the big rack's parts are named apart
    assert node_labels(m.obj for m in made) == {n.name: dict(n.labels) for n in labelled}
    again = rule_objects({"nodes/h200-141gb/ib-1.yaml": list(reversed(labelled))}, budget)
    assert again == made  # the same objects, whatever the inventory's order
