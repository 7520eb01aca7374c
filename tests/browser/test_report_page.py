"""The report rendered by headless Chromium (issue 12): the DOM its script draws, a screenshot, and
a file that fetches nothing. Skips without Chromium."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from taugen.commands.report.command import ReportOptions, collect, write_report
from taugen.commands.report.model import ReportRun, SimulationView
from taugen.commands.report.page import page
from tests.browser.chromium import dump_dom, needs_chromium, screenshot
from tests.browser.conftest import ADDED, MOVED, REMOVED
from tests.browser.dom import Dom, parse
from tests.browser.png import colour_spread

pytestmark = needs_chromium

# a scheme, a protocol-relative host, or anything that makes a browser fetch
REMOTE = re.compile(
    r"(?i)\b(?:https?|ftp|wss?|file):|//[a-z0-9-]+\.[a-z0-9.-]+/|\burl\(|@import|\b(?:src|href)="
)
CLASS_HEAD = [
    "gpu-class",
    "GPU quota",
    "high-water mark",
    "GPUs in inventory",
    "Ready slots",
    "nodes",
    "not Ready",
]


def render(tmp_path: Path, project: Path, **options: object) -> tuple[str, Dom]:
    out = tmp_path / "report.html"
    write_report(ReportOptions(project, out=out, cwd=project.parent, **options))  # type: ignore[arg-type]
    html = out.read_text(encoding="utf-8")
    return html, parse(dump_dom(out, tmp_path))


def assert_looks_like_a_page(tmp_path: Path, page_file: Path) -> None:
    colours, spread = colour_spread(screenshot(page_file, tmp_path))
    assert colours > 20 and spread > 10, (colours, spread)


def test_example_report_draws_the_tree_hosts_and_classes(tmp_path: Path, example: Path) -> None:
    html, dom = render(tmp_path, example)
    assert REMOTE.search(html) is None
    assert dom.levels("eastus-prod") == {"site": 1, "network-domain": 8, "accelerator-domain": 16, "host": 22}
    assert dom.levels("westus3-dev") == {"site": 1, "network-domain": 3, "accelerator-domain": 3, "host": 3}
    down = dom.host("aks-ndm-a100-31415926-vmss000003")
    assert (down.cluster, down.attrs["data-class"], down.attrs["data-ready"]) == (
        "eastus-prod",
        "a100-80gb",
        "false",
    )
    assert "nr" in down.classes
    assert dom.host("aks-gb200-17320508-vmss000000").attrs["data-ready"] == "true"
    assert dom.tables[("eastus-prod", "classes")] == [
        CLASS_HEAD,
        ["a100-80gb", "32", "32", "32", "3", "4", "1"],
        ["gb200-186gb", "32", "32", "32", "8", "8", "0"],
        ["h100-80gb", "32", "32", "32", "4", "4", "0"],
        ["h200-141gb", "48", "48", "48", "6", "6", "0"],
    ]
    assert_looks_like_a_page(tmp_path, tmp_path / "report.html")


def test_one_cluster_and_its_host_table(tmp_path: Path, example: Path) -> None:
    _, dom = render(tmp_path, example, cluster="westus3-dev")
    assert {e.cluster for e in dom.elements if "dom" in e.classes} == {"westus3-dev"}
    hosts = dom.tables[("westus3-dev", "hosts")]
    assert hosts[2] == [
        "aks-a100-57721566-vmss000001",
        "a100-80gb",
        "1",
        "not Ready",
        "westus3",
        "singleton-aks-a100-57721566-vmss000001",
        "singleton-aks-a100-57721566-vmss000001",
        "",
        "",
    ]


def test_diff_report_marks_hosts_and_lists_risks(tmp_path: Path, changed: Path) -> None:
    html, dom = render(tmp_path, changed, cluster="eastus-prod", diff_base="base")
    assert REMOTE.search(html) is None
    assert {
        name: dom.host(name).classes & {"mark-added", "mark-moved", "mark-removed"}
        for name in (ADDED, MOVED, REMOVED)
    } == {
        ADDED: {"mark-added"},
        MOVED: {"mark-moved"},
        REMOVED: {"mark-removed"},
    }
    fabrics = {e.attrs["data-name"] for e in dom.elements if e.attrs.get("data-level") == "network-domain"}
    assert {"ib-fabric-1", "ib-fabric-2"} <= fabrics  # the removed host is drawn where it was
    risks = [e.attrs["data-risk"] for e in dom.elements if "data-risk" in e.attrs]
    assert risks == ["placement"]  # one H100 out, one in: no capacity lost
    assert dom.tables[("eastus-prod", "changes")][:4] == [
        ["", "change", "risks"],
        ["-", f"Node {REMOVED} removed", ""],
        ["~", f"Node {MOVED}: network-domain ib-fabric-1 → ib-fabric-2", "placement"],
        ["+", f"Node {ADDED} added (gpu-class h100-80gb)", ""],
    ]
    assert_looks_like_a_page(tmp_path, tmp_path / "report.html")


def test_simulation_view_draws_placements_and_pending_runs(tmp_path: Path, example: Path) -> None:
    report = collect(ReportOptions(example, cluster="eastus-prod", cwd=example.parent))
    hosts = ("aks-gb200-17320508-vmss000000", "aks-gb200-17320508-vmss000001")
    runs = (
        ReportRun("finetune", "team-vision", "admitted", "", "taugrid-gb200-186gb", hosts),
        ReportRun(
            "big", "team-llm", "pending", "no accelerator-domain fits 5 ranks; the largest holds 4", "", ()
        ),
    )
    view = replace(report.clusters[0], simulation=SimulationView("runs.yaml", runs))
    out = tmp_path / "sim.html"
    out.write_text(page(report.title, report.subtitle, [view]), encoding="utf-8")
    assert REMOTE.search(out.read_text(encoding="utf-8")) is None
    dom = parse(dump_dom(out, tmp_path))
    assert [n for n in hosts if "placed" in dom.host(n).classes] == list(hosts)
    assert [e.attrs["data-run"] for e in dom.elements if "data-run" in e.attrs] == ["finetune", "big"]
    assert dom.tables[("eastus-prod", "runs")][1:] == [
        [
            "finetune",
            "team-vision",
            "admitted",
            "taugrid-gb200-186gb",
            ", ".join(hosts),
            f"0: {hosts[0]}, 1: {hosts[1]}",
            "",
        ],
        ["big", "team-llm", "pending", "", "", "", "no accelerator-domain fits 5 ranks; the largest holds 4"],
    ]
    assert_looks_like_a_page(tmp_path, out)


@pytest.mark.parametrize("nodes", [3000])
def test_a_large_fleet_is_aggregated(tmp_path: Path, nodes: int) -> None:
    from benchmarks.generate import generate

    project = generate(tmp_path / "fleet", nodes, forms=["native"])["native"].project
    _, dom = render(tmp_path, project)
    drawn = [e for e in dom.elements if e.attrs.get("data-level") and e.cluster == "bench"]
    merged = [e for e in drawn if "agg" in e.classes]
    assert merged and len(drawn) < 2500  # far fewer elements than domains and hosts (about 5,000)
    assert sum(int(e.attrs["data-count"]) for e in merged if e.attrs["data-level"] == "host") > 0


def test_simulate_report_draws_where_the_example_runs_land(tmp_path: Path, example: Path) -> None:
    workloads = example.parent / "examples" / "simulate" / "eastus-prod.yaml"
    html, dom = render(tmp_path, example, workloads=workloads)
    assert REMOTE.search(html) is None
    runs = dom.tables[("eastus-prod", "runs")][1:]
    buttons = [e.attrs["data-run"] for e in dom.elements if "data-run" in e.attrs]
    assert buttons == [row[0] for row in runs] and len(runs) == 6  # every run, in admission order
    placed = {e.attrs["data-host"] for e in dom.elements if "placed" in e.classes}
    ranked = {pair.split(": ")[1] for row in runs for pair in row[5].split(", ") if pair}
    assert placed == ranked and placed  # every rank's host is drawn as placed
    assert all(row[6] for row in runs if row[2] == "pending")  # a pending run says why
    assert {row[2] for row in runs} == {"admitted", "pending"}
    assert not [e for e in dom.elements if e.cluster == "westus3-dev" and "placed" in e.classes]
    assert_looks_like_a_page(tmp_path, tmp_path / "report.html")


# Clicks and a search, run by a script appended to a copy of the page; it writes what it saw
# into the DOM for --dump-dom to return.
INTERACT = """<script>
(function () {
  var s = document.querySelector('section.cluster[data-cluster="eastus-prod"]'), seen = [];
  function look() {
    var levels = {};
    s.querySelectorAll('.icicle .dom').forEach(function (e) {
      levels[e.dataset.level] = (levels[e.dataset.level] || 0) + 1;
    });
    var panel = s.querySelector('.panel h4');
    seen.push({levels: levels, panel: panel ? panel.textContent : ''});
  }
  s.querySelector('.icicle [data-name="ib-fabric-4"]').click(); look();
  s.querySelector('.icicle [data-name="ib-fabric-4"]').click(); look();
  var find = s.querySelector('.find input');
  find.value = 'aks-ndm-a100-31415926-vmss000003';
  find.dispatchEvent(new Event('change')); look();
  document.body.dataset.seen = JSON.stringify(seen);
})();
</script>"""


def test_clicks_zoom_in_and_out_and_find_selects_a_host(tmp_path: Path, example: Path) -> None:
    out = tmp_path / "report.html"
    write_report(ReportOptions(example, cluster="eastus-prod", out=out, cwd=example.parent))
    harness = tmp_path / "harness.html"
    harness.write_text(
        out.read_text(encoding="utf-8").replace("</body>", INTERACT + "</body>"), encoding="utf-8"
    )
    (body,) = [e for e in parse(dump_dom(harness, tmp_path)).elements if e.tag == "body"]
    assert json.loads(body.attrs["data-seen"]) == [
        {
            "levels": {"network-domain": 1, "accelerator-domain": 2, "host": 8},
            "panel": "network-domain ib-fabric-4",
        },
        {
            "levels": {"site": 1, "network-domain": 8, "accelerator-domain": 16, "host": 22},
            "panel": "site eastus",
        },
        {
            "levels": {"accelerator-domain": 1, "host": 1},
            "panel": "host aks-ndm-a100-31415926-vmss000003",
        },
    ]
