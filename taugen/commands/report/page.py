"""The HTML page: the template of `assets/` with its CSS, script, data and tables inlined.

Nothing is fetched when the page is viewed: no URL, no font, no image outside the file."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib.resources import files

from taugen.commands.report.model import ClusterSection
from taugen.commands.report.overlays import diff_section, simulation_section
from taugen.commands.report.payload import cluster_data, script_json
from taugen.commands.report.tables import (
    class_table,
    domain_table,
    flavor_order_table,
    group_table,
    host_table,
    outside_table,
    tenant_table,
)
from taugen.core.placeholders import fill

OPEN_UP_TO = 200  # hosts: a larger cluster's tables start folded (still found by text search)


def _asset(name: str) -> str:
    return files("taugen.commands.report").joinpath("assets", name).read_text(encoding="utf-8")


def page(title: str, subtitle: str, clusters: Sequence[ClusterSection]) -> str:
    parts = {
        "{{css}}": _asset("page.css"),
        "{{js}}": _asset("page.js"),
        "{{title}}": escape(title),
        "{{subtitle}}": escape(subtitle),
        "{{clusters}}": "\n".join(_section(c) for c in clusters),
        "{{data}}": script_json({"clusters": [cluster_data(c) for c in clusters]}),
    }
    return fill(_asset("page.html"), parts)  # one pass: no value is searched for a placeholder


def _section(view: ClusterSection) -> str:
    name = escape(view.name)
    total = sum(s.stats.hosts for s in view.sites)
    meta = f"inventory observed at {escape(view.observed_at)}; {total:,} GPU hosts"
    meta += f", {view.cpu_nodes:,} nodes without a gpu-class (outside the topology)" if view.cpu_nodes else ""
    meta += _levels_meta(view)
    opened = " open" if total <= OPEN_UP_TO else ""
    overlays = (diff_section(view.diff) if view.diff else "") + (
        simulation_section(view.simulation) if view.simulation else ""
    )
    return f"""<section class="cluster" id="cluster-{name}" data-cluster="{name}">
<h2>Cluster {name}</h2>
<p class="meta">{meta}</p>
<div class="viz">
<div class="toolbar"><nav class="crumbs" aria-label="zoomed domain"></nav>
<label class="find">find host <input type="search" placeholder="node name, then Enter"></label></div>
<div class="legend" aria-label="gpu-classes"></div>
<div class="icicle" role="group" aria-label="topology of cluster {name}"></div>
<aside class="panel" aria-live="polite"><p class="note">Click a domain or host to see its hosts, GPUs, Ready
slots and labels.</p></aside>
<div class="tip" hidden></div>
</div>
<noscript><p>The drawing needs JavaScript; the tables below hold everything it shows.</p></noscript>
{class_table(view)}{tenant_table(view)}{group_table(view)}{flavor_order_table(view)}{outside_table(view)}
{overlays}
<details class="tables"{opened}><summary>Domains and hosts, as tables</summary>
{domain_table(view)}
{host_table(view)}
</details>
</section>"""


def _levels_meta(view: ClusterSection) -> str:
    """R42: a cluster that declares levels names its tree's levels, and the GPU nodes outside it."""
    if not view.levels:
        return ""
    names = " > ".join((*(name for name, _ in view.levels), "host"))
    text = f"; levels {escape(names)}"
    if view.outside:
        count = len(view.outside)
        text += (
            f"; {count:,} GPU node{'s' if count != 1 else ''} without a declared level's label, outside "
            "the topology (listed below)"
        )
    return text
