"""The report of a cluster that declares its levels (issue 34, R42), drawn by headless Chromium:
the tree is as deep as the Topology (site > row > rack > network-domain > accelerator-domain >
host), named as the cluster names them, and a node without a declared level's label is listed
apart. Skips without Chromium."""

from __future__ import annotations

import json
from pathlib import Path

from taugen.commands.report.command import ReportOptions, write_report
from tests.browser.chromium import dump_dom, needs_chromium
from tests.browser.dom import parse
from tests.browser.test_report_page import REMOTE, assert_looks_like_a_page
from tests.unit.test_topology_levels import RACK, ROW, _with_unracked

pytestmark = needs_chromium

EVERY = {"site": 1, "row": 2, "rack": 3, "network-domain": 6, "accelerator-domain": 6, "host": 6}

# Two clicks on rack a (in, then out to its row) and Escape, run by a script appended to a copy of
# the page; it writes what it saw into the DOM for --dump-dom to return.
INTERACT = """<script>
(function () {
  var s = document.querySelector('section.cluster[data-cluster="c1"]'), seen = [];
  function look() {
    var levels = {};
    s.querySelectorAll('.icicle .dom').forEach(function (e) {
      levels[e.dataset.level] = (levels[e.dataset.level] || 0) + 1;
    });
    var dd = s.querySelectorAll('.panel dd'), caption = s.querySelector('.panel caption');
    seen.push({levels: levels, panel: s.querySelector('.panel h4').textContent,
      labels: dd[dd.length - 1].textContent, caption: caption ? caption.textContent : ''});
  }
  s.querySelector('.icicle [data-level="rack"][data-name="a"]').click(); look();
  s.querySelector('.icicle [data-level="rack"][data-name="a"]').click(); look();
  s.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})); look();
  document.body.dataset.seen = JSON.stringify(seen);
})();
</script>"""


def test_r42_the_tree_draws_every_declared_level_by_its_name(tmp_path: Path) -> None:
    project = _with_unracked(tmp_path)
    out = tmp_path / "report.html"
    write_report(ReportOptions(project, out=out, cwd=tmp_path))
    assert REMOTE.search(out.read_text(encoding="utf-8")) is None
    dom = parse(dump_dom(out, tmp_path))
    assert dom.levels("c1") == EVERY  # h200-e0 lacks its rack: not drawn, listed apart
    assert {e.attrs["data-name"] for e in dom.elements if e.attrs.get("data-level") == "rack"} == {
        "a",
        "b",
        "c",
    }
    assert dom.host("h200-c1").attrs["data-class"] == "h200-141gb"
    assert dom.tables[("c1", "outside")] == [
        ["host", "gpu-class", "GPUs", "Ready", "lacks"],
        ["h200-e0", "h200-141gb", "8", "Ready", RACK],
    ]
    assert_looks_like_a_page(tmp_path, out)


def test_r42_clicks_zoom_through_the_declared_levels(tmp_path: Path) -> None:
    project = _with_unracked(tmp_path)
    out = tmp_path / "report.html"
    write_report(ReportOptions(project, out=out, cwd=tmp_path))
    harness = tmp_path / "harness.html"
    harness.write_text(
        out.read_text(encoding="utf-8").replace("</body>", INTERACT + "</body>"), encoding="utf-8"
    )
    (body,) = [e for e in parse(dump_dom(harness, tmp_path)).elements if e.tag == "body"]
    shared = ["kueue.azure.com/gpu-series=nd-h200-v5", "tau.azure.com/gpu-class=h200-141gb"]
    row_r1 = "\n".join([f"{ROW}=r1", *shared, "tau.azure.com/site=eastus"])
    assert json.loads(body.attrs["data-seen"]) == [
        {  # rack a: its two hosts, each its own network and accelerator domain (R14)
            "levels": {"rack": 1, "network-domain": 2, "accelerator-domain": 2, "host": 2},
            "panel": "rack a",
            "labels": "\n".join([f"{RACK}=a", f"{ROW}=r1", *shared, "tau.azure.com/site=eastus"]),
            "caption": "network-domains (2)",
        },
        {  # a click on the focused domain zooms out to its row
            "levels": {"row": 1, "rack": 2, "network-domain": 4, "accelerator-domain": 4, "host": 4},
            "panel": "row r1",
            "labels": row_r1,
            "caption": "racks (2)",
        },
        {  # Escape: out to the site (the cluster's only one); the row stays selected
            "levels": EVERY,
            "panel": "row r1",
            "labels": row_r1,
            "caption": "racks (2)",
        },
    ]
