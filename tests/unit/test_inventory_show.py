"""`taugen inventory show` (issue 11): per domain hosts, GPUs and Ready hosts (R10, R16); per
class quota, Ready slots and the lock's high-water mark (R26, R27)."""

from __future__ import annotations

import json
from pathlib import Path

from taugen.commands.inventory.show import as_json, as_table, summarize
from taugen.context.session import load_view
from tests.support.views import PROJECT, built_copy


def test_table_collapses_singletons_and_shows_the_high_water_mark(tmp_path: Path) -> None:
    """h200-1 leaves the inventory after a build: the quota stays at the lock's mark (R26)."""
    project = built_copy(tmp_path)
    inventory = project.parent / "native" / "inventory.yaml"
    text = inventory.read_text()
    start, end = text.index("  # Drained"), text.index("  - name: a100-0")
    inventory.write_text(text[:start] + text[end:])
    assert as_table(summarize(load_view(project, "native"))) == (
        "cluster native: native/inventory.yaml, observed 2026-11-28T12:00:00Z\n"
        "6 nodes, 6 Ready, 4 with a gpu-class\n"
        "\n"
        "level               domain                         hosts  GPUs  Ready\n"
        "site                eastus                             4    28      4\n"
        "network-domain      eastus/fab-1                       1     8      1\n"
        "network-domain      eastus/fab-2                       1     4      1\n"
        "network-domain      eastus: 2 singleton-… domains      2    16      2\n"
        "accelerator-domain  rack-1                             1     8      1\n"
        "accelerator-domain  nvl72-a                            1     4      1\n"
        "accelerator-domain  eastus: 2 singleton-… domains      2    16      2\n"
        "\n"
        "gpu-class    nodes  GPUs  quota  high-water  Ready slots\n"
        "a100-80gb        2    16     16          16            2\n"
        "gb200-186gb      1     4      4           4            1\n"
        "h200-141gb       1     8     16          16            1\n"
    )


def _domain(level: str, name: str, path: list[str], counts: tuple[int, int, int]) -> dict[str, object]:
    hosts, gpus, ready = counts
    return {
        "level": f"tau.azure.com/{level}",
        "name": name,
        "path": path,
        "hosts": hosts,
        "gpus": gpus,
        "readyHosts": ready,
    }


H200_1 = "singleton-h200-1"


def _row(gpu_class: str, nodes: int, gpus: int, slots: int, quota: int) -> dict[str, object]:
    return {
        "gpuClass": gpu_class,
        "nodes": nodes,
        "gpus": gpus,
        "readySlots": slots,
        "gpuQuota": quota,
        "highWaterMark": None,
    }


def test_json_lists_every_domain_kube_form_before_a_build() -> None:
    """NodeList form: the cordoned and the not-Ready node are not Ready; no lock, no mark."""
    long = "singleton-a100-with-a-hostname-far-too-long-for-a-sing-872e5211"
    assert json.loads(as_json(summarize(load_view(PROJECT, "kube")))) == {
        "cluster": "kube",
        "inventory": "kube/nodes.yaml",
        "observedAt": "2026-11-28T12:00:00Z",
        "nodes": 7,
        "readyNodes": 5,
        "gpuNodes": 5,
        "domains": [
            _domain("site", "eastus", ["eastus"], (5, 36, 3)),
            _domain("network-domain", "eastus/fab-1", ["eastus", "fab-1"], (2, 16, 1)),
            _domain("network-domain", "eastus/fab-2", ["eastus", "fab-2"], (1, 4, 1)),
            _domain("network-domain", "eastus/singleton-a100-0", ["eastus", "singleton-a100-0"], (1, 8, 0)),
            _domain("network-domain", f"eastus/{long}", ["eastus", long], (1, 8, 1)),
            _domain("accelerator-domain", "rack-1", ["eastus", "fab-1", "rack-1"], (1, 8, 1)),
            _domain(
                "accelerator-domain", "singleton-h200-1", ["eastus", "fab-1", "singleton-h200-1"], (1, 8, 0)
            ),
            _domain("accelerator-domain", "nvl72-a", ["eastus", "fab-2", "nvl72-a"], (1, 4, 1)),
            _domain(
                "accelerator-domain",
                "singleton-a100-0",
                ["eastus", "singleton-a100-0", "singleton-a100-0"],
                (1, 8, 0),
            ),
            _domain("accelerator-domain", long, ["eastus", long, long], (1, 8, 1)),
        ],
        "classes": [
            {
                "gpuClass": "a100-80gb",
                "nodes": 2,
                "gpus": 16,
                "readySlots": 1,
                "gpuQuota": 16,
                "highWaterMark": None,
            },
            {
                "gpuClass": "gb200-186gb",
                "nodes": 1,
                "gpus": 4,
                "readySlots": 1,
                "gpuQuota": 4,
                "highWaterMark": None,
            },
            {
                "gpuClass": "h200-141gb",
                "nodes": 2,
                "gpus": 16,
                "readySlots": 1,
                "gpuQuota": 16,
                "highWaterMark": None,
            },
        ],
    }
