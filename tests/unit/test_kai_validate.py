"""KAI semantic rules of `taugen validate` (SPEC §8, K1/K2, R17): each with a failing and a passing tree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.validate import ValidateOptions, validate_paths

QUEUE_API = "scheduling.run.ai/v2"
LEVELS = ["tau.azure.com/site", "tau.azure.com/network-domain", "kubernetes.io/hostname"]


def queue(name: str, gpu: float, parent: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"resources": {"gpu": {"quota": gpu, "overQuotaWeight": 1, "limit": -1}}}
    if parent:
        spec["parentQueue"] = parent
    return {"apiVersion": QUEUE_API, "kind": "Queue", "metadata": {"name": name}, "spec": spec}


def topology() -> dict[str, Any]:
    levels = [{"nodeLabel": lv} for lv in LEVELS]
    return {
        "apiVersion": "kai.scheduler/v1alpha1",
        "kind": "Topology",
        "metadata": {"name": "t"},
        "spec": {"levels": levels},
    }


def node(name: str, labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}


def findings(tmp_path: Path, files: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, str]]:
    """(rule, subject, message) of every error in a tree of the given files."""
    for rel, docs in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(yaml.safe_dump_all(docs, sort_keys=False))
    report = validate_paths(ValidateOptions(paths=(tmp_path,)))
    return [(f.problem.rule, f.subject, f.problem.message) for f in report.findings if f.is_error]


CASES: dict[str, tuple[dict[str, list[dict[str, Any]]], list[tuple[str, str, str]]]] = {
    "leaf-parent-missing": (
        {"queues.yaml": [queue("taugrid", 8), queue("taugrid-a", 4, parent="taugird")]},
        [("kai-queue-parent", "Queue/taugrid-a", "parent Queue 'taugird' is not in the tree")],
    ),
    "leaf-parent-present": (
        {"queues.yaml": [queue("taugrid", 8), queue("taugrid-a", 4, parent="taugrid")]},
        [],
    ),
    "reserved-parent": (
        {"queues.yaml": [queue("default-parent-queue", 8)]},
        [
            (
                "kai-reserved-queue",
                "Queue/default-parent-queue",
                "Queue name default-parent-queue is reserved: KAI's Helm chart creates and owns it",
            )
        ],
    ),
    "reserved-leaf": (
        {"queues.yaml": [queue("taugrid", 8), queue("default-queue", 0, parent="taugrid")]},
        [
            (
                "kai-reserved-queue",
                "Queue/default-queue",
                "Queue name default-queue is reserved: KAI's Helm chart creates and owns it",
            )
        ],
    ),
    "leaf-name-too-long-for-a-label": (
        {"queues.yaml": [queue("taugrid", 8), queue("taugrid-" + "n" * 56, 0, parent="taugrid")]},
        [
            (
                "kai-queue-name",
                "Queue/taugrid-" + "n" * 56,
                "leaf Queue name is 64 characters; pods name it in a label (at most 63)",
            )
        ],
    ),
    "leaf-name-of-63-characters": (
        {"queues.yaml": [queue("taugrid", 8), queue("taugrid-" + "n" * 55, 0, parent="taugrid")]},
        [],
    ),
    "leaf-quotas-over": (
        {
            "queues.yaml": [
                queue("taugrid", 8),
                queue("taugrid-a", 4, "taugrid"),
                queue("taugrid-b", 4.5, "taugrid"),
            ]
        },
        [("kai-leaf-quota", "Queue/taugrid", "its leaf Queues deserve 8.5 GPUs, more than its quota 8")],
    ),
    "leaf-unlimited-under-finite": (
        {"queues.yaml": [queue("taugrid", 8), queue("taugrid-a", -1, "taugrid")]},
        [
            (
                "kai-leaf-quota",
                "Queue/taugrid",
                "its leaf Queues deserve unlimited GPUs, more than its quota 8",
            )
        ],
    ),
    "leaf-quotas-exactly-the-parent": (
        {
            "queues.yaml": [
                queue("taugrid", 8),
                queue("taugrid-a", 4, "taugrid"),
                queue("taugrid-b", 4, "taugrid"),
            ]
        },
        [],
    ),
    "node-misses-a-level": (
        {
            "topology.yaml": [topology()],
            "nodes/h200.yaml": [
                node("n1", {"tau.azure.com/gpu-class": "h200", "tau.azure.com/site": "eastus"})
            ],
        },
        [
            (
                "kai-node-levels",
                "Node/n1",
                "gpu-class h200 node misses level labels tau.azure.com/network-domain",
            )
        ],
    ),
    "node-carries-every-level": (
        {
            "topology.yaml": [topology()],
            "nodes/h200.yaml": [
                node(
                    "n1",
                    {
                        "tau.azure.com/gpu-class": "h200",
                        "tau.azure.com/site": "e",
                        "tau.azure.com/network-domain": "f",
                    },
                ),
                node("cpu", {"kueue.azure.com/gpu-series": "none"}),  # no gpu-class: no levels needed
            ],
        },
        [],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rule(tmp_path: Path, case: str) -> None:
    files, expected = CASES[case]
    assert findings(tmp_path, files) == expected


def test_two_clusters_never_satisfy_each_others_parent(tmp_path: Path) -> None:
    """Rules group objects per cluster folder: c2's leaf does not find c1's parent."""
    files = {"c1/queues.yaml": [queue("taugrid", 8)], "c2/queues.yaml": [queue("taugrid-a", 0, "taugrid")]}
    assert [r for r, _, _ in findings(tmp_path, files)] == ["kai-queue-parent"]
