"""R46 (issue 34 item 4): a topologyLabels preset, or a level of the explicit form, that no GPU
node of a class carries is a warning naming the class, the labels looked for, the labels those
nodes carry and the explicit form to write; not silence while every node becomes its own domain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taugen.core.errors import Problem
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

RACK, FABRIC = "example.com/rack", "example.com/ib-fabric"
NVIDIA = (
    "net.unbounded-cloud.io/network-domain, network.topology.nvidia.com/spine, "
    "nvidia.com/gpu.clique, network.topology.nvidia.com/accelerator"
)


def fleet() -> dict[str, Any]:
    """Four H200 nodes on one fabric in two racks, labelled with the site's own keys."""
    own = {"kubernetes.io/arch": "amd64", "nvidia.com/gpu.product": "NVIDIA-H200", FABRIC: "ib-1"}
    nodes = [gpu_node(f"h200-{i}", labels={**own, RACK: f"r{i // 2}"}) for i in range(4)]
    return inventory(nodes)


def r46(root: Path, **cluster: Any) -> list[Problem]:
    return [w for w in run_build(write_project(root, fleet(), **cluster)).warnings if w.rule == "R46"]


def test_a_preset_whose_labels_no_node_carries_names_what_they_carry(tmp_path: Path) -> None:
    [warning] = r46(tmp_path, topologyLabels="nvidia")
    assert (warning.message, warning.hint) == (
        f"cluster c1: no h200-141gb node carries a label of topologyLabels' preset nvidia ({NVIDIA}): "
        "each of its 4 nodes is its own network and accelerator domain (R14)",
        f"the h200-141gb nodes carry {FABRIC}, {RACK}; write the labels that group them in the explicit "
        "form `topologyLabels: {networkDomain: [LABEL], acceleratorDomain: [LABEL]}`, "
        "LABEL being the node label whose value names the rack or fabric",
    )
    assert (warning.path.name, warning.severity) == ("inventory.yaml", "warning")
    lines = (tmp_path / "inventory.yaml").read_text().splitlines()
    assert lines[warning.line - 2].strip() == "labels:"  # the labels of the class's first node
    assert [line for line in lines[: warning.line] if line.startswith("- name: ")][-1] == "- name: h200-0"


def test_a_level_of_the_explicit_form_that_no_node_carries_keeps_the_levels_that_match(
    tmp_path: Path,
) -> None:
    topology = {"networkDomain": [FABRIC], "acceleratorDomain": ["example.com/nvlink"]}
    [warning] = r46(tmp_path, topologyLabels=topology)
    assert warning.message == (
        "cluster c1: no h200-141gb node carries a label of topologyLabels' acceleratorDomain keys "
        "(example.com/nvlink): each of its 4 nodes is its own accelerator domain (R14)"
    )
    assert f"`topologyLabels: {{networkDomain: [{FABRIC}], acceleratorDomain: [LABEL]}}`" in warning.hint


def test_labels_the_nodes_carry_say_nothing(tmp_path: Path) -> None:
    assert (
        r46(tmp_path, topologyLabels={"networkDomain": ["example.com/gone", FABRIC], "acceleratorDomain": []})
        == []
    )
    assert r46(tmp_path) == []  # no topologyLabels: the default, which the cluster did not choose
