"""`taugen report` shows issue 35's admission model (SPEC R47, R51): the queues' flavor order with
the profiles' lists that made it and each tenant's flavorFungibility, and the groups' Cohorts with
their parents, tenants, quota, limits and what each level may borrow. Whole tables and whole data;
a cluster with none of it keeps its page as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

from taugen.commands.report.command import ReportOptions, collect, report_html
from taugen.commands.report.model import ClusterSection, FlavorOrder, GroupRow
from taugen.commands.report.payload import cluster_data
from taugen.commands.report.tables import flavor_order_table, group_table
from tests.conftest import REPO

TEAM_LLM = REPO / "tests" / "data" / "team-llm"
FUNGIBILITY = (
    "        flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, "
    "preference: BorrowingOverPreemption}\n"
)
# team-llm in a group llm of its own under org: llm holds 72 H200 (8 its own) and borrows at most
# 24 from org's side; org lends at most 40 of its 48 H100 up to the cluster's cohort
NESTED = """    groups:
      - name: org
        guaranteed: {h200-141gb: 100%, h100-80gb: 48}
        lendingLimit: {h100-80gb: 40}
        tenants: [team-batch]
      - name: llm
        parent: org
        guaranteed: {h200-141gb: 72}
        borrowingLimit: {h200-141gb: 24}
        tenants: [team-llm]
"""
FLAVORS = ("taugrid-default-cpu", "taugrid-h200-141gb", "taugrid-h100-80gb")
POLICY = {
    "whenCanBorrow": "TryNextFlavor",
    "whenCanPreempt": "TryNextFlavor",
    "preference": "BorrowingOverPreemption",
}


def _nested(tmp_path: Path) -> ClusterSection:
    shutil.copytree(TEAM_LLM, tmp_path / "p")
    project = tmp_path / "p" / "taugen.yaml"
    text = project.read_text(encoding="utf-8")
    text = text.replace("        weight: 2 ", FUNGIBILITY + "        weight: 2 ", 1)
    project.write_text(text[: text.index("    groups:")] + NESTED, encoding="utf-8")
    (view,) = collect(ReportOptions(project, cwd=tmp_path)).clusters
    return view


def test_r47_r51_the_model_of_a_nested_tree_with_a_fallback_list_and_a_policy(tmp_path: Path) -> None:
    """llm's 72 H200 less team-llm's 64 is its own 8; org's 96 less team-batch's 16 and llm's 72,
    8. llm may borrow 24 H200 (org's 8 and team-batch's 16, within its limit 24) and 64 H100 (it
    guarantees none: org's 16 and team-batch's 32, then the shared queue's 16); org may borrow the
    shared queue's 16 H100 and no H200 (the shared queue holds none)."""
    view = _nested(tmp_path)
    assert view.flavor_order == FlavorOrder(
        FLAVORS, (("llm-train", ("h200-141gb", "h100-80gb")),), (("team-llm", POLICY),)
    )
    org, llm = (
        ("org", "taugrid-org", "taugrid", ("team-batch",)),
        ("llm", "taugrid-llm", "taugrid-org", ("team-llm",)),
    )
    assert view.groups == (
        GroupRow(*org, "h100-80gb", 48, 16, None, 40, 16),
        GroupRow(*org, "h200-141gb", 96, 8, None, None, 0),
        GroupRow(*llm, "h100-80gb", None, 0, None, None, 64),
        GroupRow(*llm, "h200-141gb", 72, 8, 24, None, 24),
    )


def test_r47_r51_the_tables_whole(tmp_path: Path) -> None:
    view = _nested(tmp_path)
    assert flavor_order_table(view) == (
        '<table class="flavor-order"><caption>Flavor order (R47): Kueue tries each queue&#x27;s flavors in '
        "this order; the profiles&#x27; lists make it (classes no list orders: by name, R25)</caption><thead>"
        '<tr><th scope="col">where</th><th scope="col">what</th><th scope="col">value</th></tr></thead>'
        "<tbody>"
        "<tr><td>every ClusterQueue</td><td>flavor order</td>"
        "<td>taugrid-default-cpu, taugrid-h200-141gb, taugrid-h100-80gb</td></tr>"
        "<tr><td>profile llm-train</td><td>gpu_class</td><td>h200-141gb, h100-80gb</td></tr>"
        "<tr><td>tenant team-llm</td><td>flavorFungibility</td><td>whenCanBorrow TryNextFlavor, "
        "whenCanPreempt TryNextFlavor, preference BorrowingOverPreemption</td></tr></tbody></table>"
    )
    heads = (
        "group",
        "Cohort",
        "parent",
        "tenants",
        "gpu-class",
        "guaranteed GPUs (subtree)",
        "its own",
        "borrowingLimit",
        "lendingLimit",
        "may borrow",
    )
    rows = (
        ("org", "taugrid-org", "taugrid", "team-batch", "h100-80gb", "48", "16", "—", "40", "16"),
        ("org", "taugrid-org", "taugrid", "team-batch", "h200-141gb", "96", "8", "—", "—", "0"),
        ("llm", "taugrid-llm", "taugrid-org", "team-llm", "h100-80gb", "—", "0", "—", "—", "64"),
        ("llm", "taugrid-llm", "taugrid-org", "team-llm", "h200-141gb", "72", "8", "24", "—", "24"),
    )
    assert group_table(view) == (
        '<table class="groups"><caption>Groups (R51): each group&#x27;s Cohort under its parent, what its '
        "subtree is guaranteed and holds of its own, and what it may borrow from the rest of the tree"
        "</caption><thead><tr>"
        + "".join(f'<th scope="col">{h}</th>' for h in heads)
        + "</tr></thead><tbody>"
        + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        + "</tbody></table>"
    )


def test_r47_r51_the_page_data_whole(tmp_path: Path) -> None:
    data = cluster_data(_nested(tmp_path))
    assert data["flavorOrder"] == {
        "flavors": list(FLAVORS),
        "lists": [{"profile": "llm-train", "gpuClasses": ["h200-141gb", "h100-80gb"]}],
        "flavorFungibility": [{"tenant": "team-llm", **POLICY}],
    }

    def level(
        gpu_class: str, guaranteed: int | None, own: int, limits: tuple[int | None, int | None], borrow: int
    ) -> dict[str, object]:
        return {
            "gpuClass": gpu_class,
            "guaranteed": guaranteed,
            "own": own,
            "borrowingLimit": limits[0],
            "lendingLimit": limits[1],
            "borrowable": borrow,
        }

    assert data["groups"] == [
        {
            "group": "org",
            "cohort": "taugrid-org",
            "parent": "taugrid",
            "tenants": ["team-batch"],
            "classes": [
                level("h100-80gb", 48, 16, (None, 40), 16),
                level("h200-141gb", 96, 8, (None, None), 0),
            ],
        },
        {
            "group": "llm",
            "cohort": "taugrid-llm",
            "parent": "taugrid-org",
            "tenants": ["team-llm"],
            "classes": [
                level("h100-80gb", None, 0, (None, None), 64),
                level("h200-141gb", 72, 8, (24, None), 24),
            ],
        },
    ]


def test_the_done_when_project_shows_its_order_and_its_org_group(tmp_path: Path) -> None:
    """tests/data/team-llm as committed: org holds team-llm and team-batch; no tenant sets a policy."""
    (view,) = collect(ReportOptions(TEAM_LLM / "taugen.yaml", cwd=tmp_path)).clusters
    assert view.flavor_order == FlavorOrder(FLAVORS, (("llm-train", ("h200-141gb", "h100-80gb")),), ())
    org = ("org", "taugrid-org", "taugrid", ("team-llm", "team-batch"))
    assert view.groups == (
        GroupRow(*org, "h100-80gb", 48, 16, None, None, 16),
        GroupRow(*org, "h200-141gb", 96, 16, None, None, 0),
    )


def test_a_cluster_without_lists_policies_or_groups_keeps_its_page(tmp_path: Path) -> None:
    """The repository's example: no profile lists classes, no tenant sets flavorFungibility, no
    groups (R25's order by name is nothing to explain)."""
    options = ReportOptions(REPO / "taugen.yaml", cluster="eastus-prod", cwd=tmp_path)
    (view,) = collect(options).clusters
    assert (view.flavor_order, view.groups) == (None, ())
    assert not {"flavorOrder", "groups"} & cluster_data(view).keys()
    page = report_html(options)
    assert 'class="flavor-order"' not in page and 'class="groups"' not in page and 'class="tenants"' in page
