"""`taugen report` on a cluster that declares its levels (issue 34, R42): the tree has the
Topology's levels in its order, named as the cluster names them; a GPU node without a declared
level's label is listed apart (Kueue leaves it out), never dropped. R44: the class table shows
each extra resource's quota. A cluster that declares neither draws as before (test_report.py,
tests/browser)."""

from __future__ import annotations

import re
from pathlib import Path

from taugen.commands.report.capacity import class_rows
from taugen.commands.report.command import ReportOptions, collect, report_html
from taugen.commands.report.model import Host, OutsideHost, ReportClassRow
from taugen.commands.report.payload import cluster_data
from taugen.commands.report.tables import host_table
from taugen.commands.report.topology import CONTRACT_PATH, ghost, path_levels
from tests.browser.dom import parse
from tests.support.unit import resolve_project, run_build
from tests.unit.test_extra_resources import EFA, HUGE
from tests.unit.test_extra_resources import _project as eks_project
from tests.unit.test_topology_levels import RACK, ROW, _with_unracked

H200 = {"kueue.azure.com/gpu-series": "nd-h200-v5", "tau.azure.com/gpu-class": "h200-141gb"}
LEVELS = [
    ["site", "tau.azure.com/site"],
    ["row", ROW],
    ["rack", RACK],
    ["network-domain", "tau.azure.com/network-domain"],
    ["accelerator-domain", "tau.azure.com/accelerator-domain"],
]


def _rack(name: str, *hosts: str) -> list[object]:
    """A rack of hosts each its own network and accelerator domain (no fabric label, R14)."""
    return [name, [[f"singleton-{h}", [[0, [[h, 0, 8, 1, 0]]]]] for h in hosts]]


def test_r42_payload_nests_the_declared_levels_and_names_them(tmp_path: Path) -> None:
    (view,) = collect(ReportOptions(_with_unracked(tmp_path), cwd=tmp_path)).clusters
    assert cluster_data(view) == {
        "name": "c1",
        "levels": LEVELS,
        "classes": ["h200-141gb"],
        "typical": {0: 8},
        "sets": [H200],  # the levels' labels are read from the path, rack and row included
        "sites": [
            [
                "eastus",
                [
                    ["r1", [_rack("a", "h200-a0", "h200-a1"), _rack("b", "h200-b0", "h200-b1")]],
                    ["r2", [_rack("c", "h200-c0", "h200-c1")]],
                ],
            ]
        ],
        "marks": {},
        "runs": [],
    }


def test_r42_a_node_without_a_declared_label_is_listed_outside_the_topology(tmp_path: Path) -> None:
    project = _with_unracked(tmp_path)
    (view,) = collect(ReportOptions(project, cwd=tmp_path)).clusters
    labels = {
        **H200,
        ROW: "r2",
        "tau.azure.com/accelerator-domain": "singleton-h200-e0",
        "tau.azure.com/network-domain": "singleton-h200-e0",
        "tau.azure.com/site": "eastus",
    }
    host = Host("h200-e0", "h200-141gb", 8, True, dict(sorted(labels.items())), slot=False)
    assert view.outside == (OutsideHost(host, (RACK,)),)
    assert sum(s.stats.hosts for s in view.sites) == 6  # not in the tree: Kueue leaves it out
    assert view.classes == (ReportClassRow("h200-141gb", 56, None, 56, 7, 7, 0),)  # its GPUs are quota
    html = report_html(ReportOptions(project, cwd=tmp_path))
    (meta,) = re.findall(r'<p class="meta">(inventory observed.*?)</p>', html)
    assert meta == (
        "inventory observed at 2026-11-28T12:00:00Z; 6 GPU hosts; levels site &gt; row &gt; rack &gt; "
        "network-domain &gt; accelerator-domain &gt; host; 1 GPU node without a declared level's label, "
        "outside the topology (listed below)"
    )
    assert parse(html).tables[("c1", "outside")][1:] == [["h200-e0", "h200-141gb", "8", "Ready", RACK]]


def test_r42_host_table_has_a_column_per_level_in_the_topologys_order(tmp_path: Path) -> None:
    (view,) = collect(ReportOptions(_with_unracked(tmp_path), cwd=tmp_path)).clusters
    rows = parse(host_table(view)).tables[("", "hosts")]
    assert rows[0] == [
        "host",
        "gpu-class",
        "GPUs",
        "Ready",
        "site",
        "row",
        "rack",
        "network domain",
        "accelerator domain",
        "change",
        "runs",
    ]
    assert [row[4:7] for row in rows[1:]] == [
        ["eastus", "r1", "a"],
        ["eastus", "r1", "a"],
        ["eastus", "r1", "b"],
        ["eastus", "r1", "b"],
        ["eastus", "r2", "c"],
        ["eastus", "r2", "c"],
    ]


def test_r42_a_removed_node_is_drawn_only_where_its_base_labels_place_it(tmp_path: Path) -> None:
    """A base Node holds taugen's labels (R29), never a declared level's: not placed in such a tree."""
    written = {
        **H200,
        "tau.azure.com/site": "eastus",
        "tau.azure.com/network-domain": "f1",
        "tau.azure.com/accelerator-domain": "singleton-h-x",
    }
    levels = path_levels(resolve_project(_with_unracked(tmp_path)).levels)
    assert [name for name, _ in levels] == [level for level, _ in LEVELS]
    assert ghost("h-x", written, levels) is None
    assert ghost("h-x", written, CONTRACT_PATH) == Host(
        "h-x", "h200-141gb", 0, False, dict(sorted(written.items())), removed=True
    )
    racked = {**written, ROW: "r1", RACK: "a"}
    assert ghost("h-x", racked, levels) == Host(
        "h-x", "h200-141gb", 0, False, dict(sorted(racked.items())), removed=True
    )


def test_r44_class_rows_and_table_show_the_extra_quota(tmp_path: Path) -> None:
    project = eks_project(tmp_path)
    hugepages = 4 * 21 * 2**30  # R44: four Ready nodes' 21Gi each
    row = ReportClassRow("h100-80gb", 40, None, 40, 4, 5, 1, ((HUGE, hugepages), (EFA, 128)))
    assert class_rows(resolve_project(project), None) == (row,)
    run_build(project)
    html = report_html(ReportOptions(project, cwd=tmp_path))
    assert parse(html).tables[("c1", "classes")] == [
        [
            "gpu-class",
            "GPU quota",
            "high-water mark",
            "GPUs in inventory",
            "Ready slots",
            "nodes",
            "not Ready",
            "extra quota (R44)",
        ],
        ["h100-80gb", "40", "40", "40", "4", "5", "1", f"{HUGE} {hugepages:,}, {EFA} 128"],
    ]


def test_r44_extra_quota_is_kept_at_the_locks_mark(tmp_path: Path) -> None:
    """R26 for extra resources: the report shows what a build writes, not what is left."""
    project = eks_project(tmp_path)
    marks = {"h100-80gb": {EFA: 256, HUGE: 1}}
    (row,) = class_rows(resolve_project(project), {"h100-80gb": 40}, marks)
    assert row.extra == ((HUGE, 4 * 21 * 2**30), (EFA, 256))
