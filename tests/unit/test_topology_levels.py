"""R42: a cluster's own topology levels (`topology.levels`, presets, `placements`) become its
Topology (Kueue and KAI) in the fleet's depth; a cluster that declares none compiles as before.
R43: a run requires or prefers a declared level by name; an undeclared one is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.preflight.check import preflight
from taugen.context.session import open_project
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import RunContext
from taugen.models.levels import ClusterTopology
from taugen.resolve.counts import count_domains
from taugen.resolve.labels import LEVELS
from taugen.resolve.levels import CONTRACT_LEVELS, levels_of
from tests.support.helpers import gpu_node, inventory
from tests.support.runs import context_of, objects_of, run_doc
from tests.support.unit import objects, problems_of, profile, run_build, write_profiles, write_project

RACK, ROW = "dc.example.org/rack", "dc.example.org/row"
SITE, NET, ACC, HOST = LEVELS


def _nodes() -> list[dict[str, Any]]:
    """Six H200 nodes: rows r1 (racks a, b) and r2 (rack c), two per rack."""
    racks = {"a": "r1", "b": "r1", "c": "r2"}
    return [
        gpu_node(f"h200-{rack}{i}", labels={RACK: rack, ROW: row})
        for rack, row in racks.items()
        for i in (0, 1)
    ]


def _project(tmp_path: Path, topology: Any, **cluster: Any) -> Path:
    return write_project(tmp_path, inventory(_nodes()), topology=topology, **cluster)


OWN = {"levels": [{"name": "row", "label": ROW}, {"name": "rack", "label": RACK}]}


def test_r42_a_cluster_without_levels_keeps_the_four_of_section_2() -> None:
    assert levels_of(None) == CONTRACT_LEVELS
    assert CONTRACT_LEVELS.labels == LEVELS
    assert CONTRACT_LEVELS.declared == ()


@pytest.mark.parametrize(
    ("declared", "labels", "placements"),
    [
        (
            OWN,
            (SITE, ROW, RACK, NET, ACC, HOST),
            {"same-site": SITE, "same-network-domain": NET, "same-accelerator-domain": ACC},
        ),
        (
            {**OWN, "placements": {"same-network-domain": "row", "same-accelerator-domain": "rack"}},
            (SITE, ROW, RACK, HOST),
            {"same-site": SITE, "same-network-domain": ROW, "same-accelerator-domain": RACK},
        ),
        (
            {"levels": "eks"},
            (SITE, *(f"topology.k8s.aws/network-node-layer-{n}" for n in (1, 2, 3)), ACC, HOST),
            {
                "same-site": SITE,
                "same-network-domain": "topology.k8s.aws/network-node-layer-3",
                "same-accelerator-domain": ACC,
            },
        ),
        (  # a placement given beside a preset overrides the preset's own
            {"levels": "eks", "placements": {"same-network-domain": "layer-2"}},
            (SITE, *(f"topology.k8s.aws/network-node-layer-{n}" for n in (1, 2, 3)), ACC, HOST),
            {
                "same-site": SITE,
                "same-network-domain": "topology.k8s.aws/network-node-layer-2",
                "same-accelerator-domain": ACC,
            },
        ),
    ],
)
def test_r42_declared_levels_and_the_unmapped_placements_make_the_topology(
    declared: dict[str, Any], labels: tuple[str, ...], placements: dict[str, str]
) -> None:
    found = levels_of(ClusterTopology.model_validate(declared))
    assert (found.labels, dict(found.placements)) == (labels, placements)


def test_r42_kueue_topology_has_the_declared_levels(tmp_path: Path) -> None:
    run_build(_project(tmp_path, {**OWN, "placements": {"same-accelerator-domain": "rack"}}))
    topology = objects(tmp_path)["Topology/taugrid-gpu-topology"]
    assert topology["spec"] == {"levels": [{"nodeLabel": label} for label in (SITE, ROW, RACK, NET, HOST)]}


def test_r42_kai_topology_aliases_a_declared_level_by_its_name_and_grove_binds_it(tmp_path: Path) -> None:
    run_build(_project(tmp_path, OWN, scheduler="kai", grove=True))
    found = objects(tmp_path)
    names = ["site", "row", "rack", "network-domain", "accelerator-domain", "hostname"]
    labels = [SITE, ROW, RACK, NET, ACC, HOST]
    assert found["Topology/taugrid-gpu-topology"]["spec"] == {
        "levels": [{"nodeLabel": label, "alias": name} for name, label in zip(names, labels, strict=True)]
    }
    binding = found["ClusterTopologyBinding/taugrid-gpu-topology"]["spec"]
    assert binding["levels"] == [
        {"domain": domain, "key": label} for domain, label in zip([*names[:-1], "host"], labels, strict=True)
    ]


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        (
            {"levels": [{"name": "rack", "label": RACK}, {"name": "rack", "label": ROW}]},
            "level name rack is declared twice",
        ),
        (
            {"levels": [{"name": "rack", "label": RACK}, {"name": "row", "label": RACK}]},
            f"level label {RACK} is declared twice",
        ),
        (
            {"levels": [{"name": "node", "label": HOST}]},
            f"level node names {HOST}, a level taugen adds itself",
        ),
        (
            {"levels": [{"name": "fabric", "label": NET}]},
            f"level fabric names {NET}, a level taugen adds itself",
        ),
        (
            {"levels": [{"name": "site", "label": RACK}]},
            "level name site is one of the contract's own levels",
        ),
        (
            {**OWN, "placements": {"same-site": "hall"}},
            "placement same-site maps to hall, which is not a declared level",
        ),
        (
            {"levels": [{"name": f"l{i}", "label": f"dc.example.org/l{i}"} for i in range(13)]},
            "the Topology would have 17 levels (13 declared, 3 unmapped contract levels, the host); "
            "Kueue and KAI take at most 16",
        ),
    ],
)
def test_r42_levels_that_cannot_be_a_topology_are_refused_at_their_line(
    tmp_path: Path, declared: dict[str, Any], message: str
) -> None:
    problems = problems_of(lambda: run_build(_project(tmp_path, declared)))
    assert [(p.rule, p.message) for p in problems] == [("R42", f"clusters.0.topology: {message}")]
    line = (tmp_path / "taugen.yaml").read_text().splitlines()[problems[0].line - 1]
    assert line.strip() == "levels:"  # where the cluster's topology opens, at its level list
    assert not (tmp_path / "out").exists()


def test_r42_sixteen_levels_are_kueues_limit_exactly(tmp_path: Path) -> None:
    many = {"levels": [{"name": f"l{i}", "label": f"dc.example.org/l{i}"} for i in range(12)]}
    run_build(_project(tmp_path, many))
    assert len(objects(tmp_path)["Topology/taugrid-gpu-topology"]["spec"]["levels"]) == 16


# --- R43: a run names a declared level ---------------------------------------------------------


def _lab(tmp_path: Path) -> Path:
    profiles = write_profiles(tmp_path, profile("h200", gpu_class="h200-141gb"))
    project = write_project(tmp_path, inventory(_nodes()), topology=OWN, profiles=profiles)
    run_build(project)
    return project


def _pod_annotations(context: RunContext) -> dict[str, str]:
    (job,) = [o for o in objects_of(render(context)) if o["kind"] == "Job"]
    found: dict[str, str] = job["spec"]["template"]["metadata"]["annotations"]
    return found


@pytest.mark.parametrize(
    ("topology", "annotations"),
    [
        ({"required": "rack"}, {"kueue.x-k8s.io/podset-required-topology": RACK}),
        ({"preferred": "row"}, {"kueue.x-k8s.io/podset-preferred-topology": ROW}),
        ("same-network-domain", {"kueue.x-k8s.io/podset-required-topology": NET}),  # §2, unmapped
    ],
)
def test_r43_render_writes_the_named_levels_label(
    tmp_path: Path, topology: Any, annotations: dict[str, str]
) -> None:
    project = _lab(tmp_path)
    context = context_of(project, run_doc("h200", workers=2, policy={"topology": topology}))
    assert _pod_annotations(context) == annotations


def test_r43_preflight_places_in_one_domain_of_the_named_level(tmp_path: Path) -> None:
    project = _lab(tmp_path)
    fits = preflight(
        context_of(project, run_doc("h200", workers=4, policy={"topology": {"required": "row"}}))
    )
    assert (fits.eligible, fits.domain and fits.domain.path) == (True, ("eastus", "r1"))
    wide = preflight(
        context_of(project, run_doc("h200", workers=3, policy={"topology": {"required": "rack"}}))
    )
    assert wide.eligible is False
    (topology,) = [c for c in wide.checks if c.id == "topology"]
    assert topology.message == (
        f"no single {RACK} holds 3 ranks; the largest, a, holds 2 ranks on 2 Ready nodes: lacks 1; "
        f"{ROW} r1 would hold 4, but nothing falls back to a wider level: set policy.topology to "
        "{required: row} to use it"
    )


def test_r43_an_undeclared_level_is_refused_with_the_declared_names(tmp_path: Path) -> None:
    project = _lab(tmp_path)
    doc = run_doc("h200", workers=2, policy={"topology": {"required": "hall"}})
    problems = problems_of(lambda: context_of(project, doc))
    assert [(p.rule, p.message, p.hint) for p in problems] == [
        ("R43", "cluster c1 declares no topology level hall", "name one of its levels: row, rack")
    ]
    line = (tmp_path / "runs" / "run.yaml").read_text().splitlines()[problems[0].line - 1]
    assert (line.strip(), line.index("required")) == ("required: hall", problems[0].col - 1)


def test_r43_a_level_placement_names_one_level(tmp_path: Path) -> None:
    project = _lab(tmp_path)
    doc = run_doc("h200", workers=2, policy={"topology": {"required": "rack", "preferred": "row"}})
    problems = problems_of(lambda: context_of(project, doc))
    assert [(p.rule, p.message) for p in problems] == [
        ("R43", "policy.topology: a level placement names one level, required or preferred")
    ]


# --- R46 at a declared level ---------------------------------------------------------------------


def test_r46_a_declared_level_no_node_of_a_class_carries_is_a_warning(tmp_path: Path) -> None:
    declared = {"levels": [{"name": "hall", "label": "dc.example.org/hall"}, {"name": "rack", "label": RACK}]}
    result = run_build(_project(tmp_path, declared))
    assert [(w.rule, w.message, w.hint) for w in result.warnings if w.rule == "R46"] == [
        (
            "R46",
            "cluster c1: no h200-141gb node carries level hall's label dc.example.org/hall: Kueue leaves "
            "every one of them out of topology-aware scheduling",
            f"the h200-141gb nodes carry {RACK}, {ROW}; set the level's label to the one that names the hall",
        )
    ]


def test_r46_a_declared_level_of_one_domain_per_node_is_a_warning(tmp_path: Path) -> None:
    nodes = [gpu_node(f"h200-{i}", labels={RACK: f"rack-{i}"}) for i in range(3)]
    project = write_project(
        tmp_path, inventory(nodes), topology={"levels": [{"name": "rack", "label": RACK}]}
    )
    result = run_build(project)
    assert [(w.rule, w.message) for w in result.warnings if w.rule == "R46"] == [
        (
            "R46",
            f"cluster c1: each of the 3 h200-141gb nodes is its own rack domain ({RACK}): a run "
            "requiring rack fits on one node",
        )
    ]


def _with_unracked(tmp_path: Path) -> Path:
    nodes = [*_nodes(), gpu_node("h200-e0", labels={ROW: "r2"})]  # no rack label
    profiles = write_profiles(
        tmp_path, profile("h200", gpu_class="h200-141gb"), profile("racked", "h200-141gb")
    )
    project = write_project(tmp_path, inventory(nodes), topology=OWN, profiles=profiles)
    return project


def test_r46_nodes_without_a_declared_label_are_named_kueue_leaves_them_out(tmp_path: Path) -> None:
    result = run_build(_with_unracked(tmp_path))
    assert [(w.rule, w.message) for w in result.warnings if w.rule == "R46"] == [
        (
            "R46",
            f"cluster c1: 1 of the 7 h200-141gb nodes lack level rack's label {RACK} (h200-e0): Kueue "
            "leaves it out of topology-aware scheduling",
        )
    ]


def test_r42_preflight_leaves_out_a_node_kueue_leaves_out_and_says_so(tmp_path: Path) -> None:
    project = _with_unracked(tmp_path)
    run_build(project)
    fits = preflight(
        context_of(project, run_doc("h200", workers=4, policy={"topology": {"required": "row"}}))
    )
    (topology,) = [c for c in fits.checks if c.id == "topology"]
    assert (fits.eligible, topology.message) == (
        True,
        f"{ROW}: best domain r1 holds 4 ranks on 4 Ready nodes; headroom 0 "
        f"(1 without every level label ({ROW}, {RACK}), left out as Kueue leaves them)",
    )


def test_r42_inventory_counts_the_topologys_levels_in_its_order(tmp_path: Path) -> None:
    project = _with_unracked(tmp_path)
    view = open_project(project).one(None)
    found = [
        (d.shown_level, d.name, d.hosts) for d in count_domains(view.resolved.nodes, view.resolved.levels)
    ]
    assert found[:6] == [
        ("site", "eastus", 6),  # h200-e0 is in no domain: Kueue's topology leaves it out
        ("row", "eastus/r1", 4),
        ("row", "eastus/r2", 2),
        ("rack", "eastus/r1/a", 2),
        ("rack", "eastus/r1/b", 2),
        ("rack", "eastus/r2/c", 2),
    ]
    assert [level for level, _, _ in found[6:]] == ["network-domain"] * 6 + ["accelerator-domain"] * 6


def test_r43_a_profile_naming_a_level_the_cluster_lacks_is_not_ready_there(tmp_path: Path) -> None:
    racked = profile("racked", "h200-141gb")
    racked["policy"]["topology"] = {"required": "rack"}
    profiles = write_profiles(tmp_path, racked)
    run_build(write_project(tmp_path, inventory(_nodes()), profiles=profiles))  # no levels declared
    catalog = objects(tmp_path)["ConfigMap/kueue-system/taugen-profile-catalog"]
    (entry,) = yaml.safe_load(catalog["data"]["profiles.yaml"])["profiles"]
    assert (entry["ready"], entry["reason"], entry["topologyLevel"]) == (
        False,
        "cluster c1 declares no topology level rack (its levels: none)",
        None,
    )
