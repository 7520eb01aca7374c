"""`taugen report`'s core (issue 12): the domain tree (R10, R14, R16), capacity per class (R26,
R27), the diff's marks, the page's data. The drawn page is tested in tests/browser."""

from __future__ import annotations

import shutil
from pathlib import Path

from taugen.commands.report.capacity import class_rows
from taugen.commands.report.changes import diff_view, removed_hosts
from taugen.commands.report.command import ReportOptions, collect, report_html
from taugen.commands.report.model import Host, HostMark, ReportClassRow, ReportDomain
from taugen.commands.report.payload import cluster_data, script_json
from taugen.commands.report.topology import hosts_of, tree
from taugen.engines.changes.engine import DiffOptions, diff
from tests.support.helpers import cpu_node, gpu_node, inventory, write_yaml
from tests.support.unit import resolve_project, run_build, write_project

FABRIC = "net.unbounded-cloud.io/network-domain"
RACK = "net.unbounded-cloud.io/accelerator-domain"
H200 = {"kueue.azure.com/gpu-series": "nd-h200-v5", "tau.azure.com/gpu-class": "h200-141gb"}


def _labels(network: str, rack: str, infiniband: bool = True) -> dict[str, str]:
    labels = {**H200, "tau.azure.com/site": "eastus", "tau.azure.com/network-domain": network}
    labels["tau.azure.com/accelerator-domain"] = rack
    if infiniband:
        labels["tau.azure.com/infiniband"] = "true"
    return dict(sorted(labels.items()))


def _fleet(tmp_path: Path, extra: list[dict[str, object]] | None = None) -> Path:
    nodes = [
        gpu_node("h-a", labels={FABRIC: "f1", RACK: "r1"}),
        gpu_node("h-b", labels={FABRIC: "f1"}),
        gpu_node("h-c", ready=False),
        cpu_node("cpu-0"),
        *(extra or []),
    ]
    return write_project(tmp_path, inventory(nodes))


def test_tree_nests_site_network_accelerator_host(tmp_path: Path) -> None:
    resolved = resolve_project(_fleet(tmp_path))
    host_a = Host("h-a", "h200-141gb", 8, True, _labels("f1", "r1"))
    host_b = Host("h-b", "h200-141gb", 8, True, _labels("f1", "singleton-h-b"))
    host_c = Host("h-c", "h200-141gb", 8, False, _labels("singleton-h-c", "singleton-h-c", infiniband=False))
    f1 = ReportDomain(
        "network-domain",
        "f1",
        (
            ReportDomain("accelerator-domain", "r1", hosts=(host_a,)),
            ReportDomain("accelerator-domain", "singleton-h-b", hosts=(host_b,)),
        ),
    )
    single = ReportDomain(
        "network-domain",
        "singleton-h-c",
        (ReportDomain("accelerator-domain", "singleton-h-c", hosts=(host_c,)),),
    )
    sites = tree(hosts_of(resolved, True))
    assert sites == (ReportDomain("site", "eastus", (f1, single)),)
    assert (
        sites[0].stats.hosts,
        sites[0].stats.gpus,
        sites[0].stats.ready_slots,
        sites[0].stats.not_ready,
    ) == (3, 24, 2, 1)


def test_class_rows_show_the_quota_a_build_writes_beside_the_high_water_mark(tmp_path: Path) -> None:
    resolved = resolve_project(_fleet(tmp_path))
    assert class_rows(resolved, None) == (ReportClassRow("h200-141gb", 24, None, 24, 2, 3, 1),)
    assert class_rows(resolved, {"h200-141gb": 40, "a100-80gb": 16}) == (  # R26: quota keeps the mark
        ReportClassRow("a100-80gb", 16, 16, 0, 0, 0, 0),
        ReportClassRow("h200-141gb", 40, 40, 24, 2, 3, 1),
    )


def test_page_data_is_compact_and_names_singletons_by_their_host(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    (view,) = collect(ReportOptions(project, cwd=tmp_path)).clusters
    infiniband = {**H200, "tau.azure.com/infiniband": "true"}
    assert cluster_data(view) == {
        "name": "c1",
        "classes": ["h200-141gb"],
        "typical": {0: 8},
        "sets": [dict(sorted(infiniband.items())), H200],
        "sites": [
            [
                "eastus",
                [
                    ["f1", [["r1", [["h-a", 0, 8, 1, 0]]], [0, [["h-b", 0, 8, 1, 0]]]]],
                    ["singleton-h-c", [[0, [["h-c", 0, 8, 0, 1]]]]],
                ],
            ]
        ],
        "marks": {},
        "runs": [],
    }


def test_report_times_are_utc_with_z(tmp_path: Path) -> None:
    """Issue 18: the report printed the inventory's own offset (+02:00) where the lock wrote Z."""
    project = write_project(tmp_path, inventory([gpu_node("h-a")], observed_at="2026-11-28T14:30:00+02:00"))
    (view,) = collect(ReportOptions(project, cwd=tmp_path)).clusters
    assert view.observed_at == "2026-11-28T12:30:00Z"
    assert "inventory observed at 2026-11-28T12:30:00Z;" in report_html(ReportOptions(project, cwd=tmp_path))


def test_script_json_cannot_close_its_script_element() -> None:
    assert script_json({"a": "</script><!--"}) == '{"a":"<\\/script><\\!--"}'


def test_same_inputs_same_page(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    first = report_html(ReportOptions(project, cwd=tmp_path))
    assert first == report_html(ReportOptions(project, cwd=tmp_path))
    assert "http" not in first.lower()


def test_diff_marks_added_removed_and_moved_hosts(tmp_path: Path) -> None:
    project = _fleet(tmp_path)
    run_build(project)
    shutil.copytree(tmp_path / "out", tmp_path / "base")
    nodes = [
        gpu_node("h-a", labels={FABRIC: "f2", RACK: "r1"}),  # moved to another fabric
        gpu_node("h-c", ready=False),  # h-b removed
        gpu_node("h-d", labels={FABRIC: "f1"}),  # added
    ]
    write_yaml(tmp_path / "inventory.yaml", inventory(nodes))
    run_build(project)
    result = diff(DiffOptions("base", None, tmp_path, Path("taugen.yaml")))
    view = diff_view(result, "c1", only=True)
    assert dict(view.marks) == {
        "h-a": HostMark("moved", "Node h-a: network-domain f1 → f2"),
        "h-b": HostMark("removed", ""),
        "h-d": HostMark("added", ""),
    }
    assert [g.id for g in view.risks] == ["placement"]  # one host out, one in: no slot lost
    assert removed_hosts(result, view) == [
        Host("h-b", "h200-141gb", 0, False, _labels("f1", "singleton-h-b"), removed=True)
    ]


def test_a_value_holding_a_placeholder_gets_no_data_pasted_into_it(tmp_path: Path) -> None:
    """Issue 32: the page was filled one `str.replace` per placeholder, `{{data}}` last, so an
    escaped label `{{data}}` (from a hand-edited out/) had the raw data pasted in, and a second
    label `<img onerror=…>` then ran. The template is now filled in one pass."""
    import yaml

    project = _fleet(tmp_path)
    run_build(project)
    shutil.copytree(tmp_path / "out", tmp_path / "base")
    nodes = next((tmp_path / "out" / "c1" / "nodes").rglob("nodes.yaml"))
    docs = list(yaml.safe_load_all(nodes.read_text()))
    docs[0]["metadata"]["labels"]["tau.azure.com/gpu-class"] = "{{data}}"
    docs[0]["metadata"]["labels"]["tau.azure.com/site"] = "<img src=x onerror=alert(1)>"
    nodes.write_text(yaml.safe_dump_all(docs))
    html = report_html(ReportOptions(project, cwd=tmp_path, diff_base="base"))
    (before, data_and_after) = html.split('<script type="application/json" id="taugen-data">')
    after = data_and_after.split("</script>", 1)[1]
    assert "<img" not in before + after and "&lt;img src=x onerror=alert(1)&gt;" in before
    assert "{{data}}" in before  # shown as written, not filled


def test_fill_never_searches_what_it_filled_in() -> None:
    from taugen.core.placeholders import fill

    values = {"{{a}}": "{{b}}", "{{b}}": "<b>", "{{ab}}": "long"}
    assert fill("{{a}} {{b}} {{ab}}", values) == "{{b}} <b> long"
