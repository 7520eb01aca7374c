"""`taugen preflight`: one case per reason, with the exact verdicts (§7, seed 000).

The lab cluster: h200 fabric ib-a has four hosts (one not Ready), ib-b two; gb200 NVLink
islands nvl72-a (three hosts) and nvl72-b (two) on one fabric; a100: two singleton hosts,
one not Ready. h100 has no node at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.preflight.check import Preflight, preflight
from taugen.commands.preflight.report import as_json, as_text
from tests.support.runs import build_lab, context_of, run_doc

H200_FLAVOR = "taugrid-h200-141gb (nodeLabels tau.azure.com/gpu-class=h200-141gb)"
GB200 = {"nvidia.com/gpu": 2, "cpu": "30", "memory": "200Gi"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _check(project: Path, doc: dict[str, Any]) -> Preflight:
    return preflight(context_of(project, doc))


def _checks(result: Preflight) -> dict[str, tuple[bool, str]]:
    return {c.id: (c.ok, c.message) for c in result.checks}


def test_eligible_names_the_best_fitting_domain(project: Path) -> None:
    """Two fabrics hold two ranks; the smaller one that suffices is named (Kueue's BestFit)."""
    result = _check(project, run_doc("h200-train", 2, "torchrun"))
    assert result.eligible and result.verdict == "eligible"
    assert _checks(result) == {
        "profile": (True, "h200-train is ready in cluster lab"),
        "flavor": (True, H200_FLAVOR),
        "quota": (
            True,
            "ClusterQueue taugrid, flavor taugrid-h200-141gb: cpu 180 of 100k, memory 3200Gi of 100Ti, "
            "nvidia.com/gpu 16 of 48, tau.azure.com/torchrun-host-slot 2 of 5",
        ),
        "topology": (
            True,
            "tau.azure.com/network-domain: best domain eastus/ib-b holds 2 ranks on 2 Ready nodes; "
            "headroom 0 (multi-node torchrun: one rank per node)",
        ),
    }


def test_no_flavor_for_the_class(project: Path) -> None:
    """A flavor matches on tau.azure.com/gpu-class alone; none has h100-80gb (no node has it)."""
    result = _check(project, run_doc("h200-any", policy={"gpu_class": "h100-80gb"}))
    assert not result.eligible
    assert _checks(result) == {
        "profile": (
            False,
            "h200-any is not ready: gpu-class h100-80gb has no nodes in cluster lab "
            "(policy.gpu_class of the run)",
        ),
        "flavor": (False, "no ResourceFlavor has nodeLabels tau.azure.com/gpu-class=h100-80gb"),
    }


def test_not_ready_profile(project: Path) -> None:
    result = _check(project, run_doc("h100-any"))
    assert _checks(result) == {
        "profile": (False, "h100-any is not ready: gpu-class h100-80gb has no nodes in cluster lab"),
        "flavor": (False, "no ResourceFlavor has nodeLabels tau.azure.com/gpu-class=h100-80gb"),
    }


def test_quota_does_not_cover_the_total_request(project: Path) -> None:
    """CPU-only work: the CPU flavor's nominal quota is the only limit (no topology, R23)."""
    result = _check(project, run_doc("cpu-batch", 4, resources={"cpu": "30k", "memory": "1Gi"}))
    assert _checks(result) == {
        "profile": (True, "cpu-batch is ready in cluster lab"),
        "flavor": (True, "taugrid-default-cpu (CPU-only: not topology-aware, R23)"),
        "quota": (
            False,
            "ClusterQueue taugrid, flavor taugrid-default-cpu: cpu 120k exceeds the nominal quota 100k "
            "(lacks 20k)",
        ),
    }


def test_gpu_quota_and_capacity(project: Path) -> None:
    """Quota counts every h200 node (R26); capacity only the Ready ones."""
    result = _check(project, run_doc("h200-any", 7))
    checks = _checks(result)
    assert checks["quota"] == (
        False,
        "ClusterQueue taugrid, flavor taugrid-h200-141gb: nvidia.com/gpu 56 exceeds the nominal quota 48 "
        "(lacks 8)",
    )
    assert checks["topology"] == (
        False,
        "unconstrained: the whole cluster holds 5 ranks on 5 Ready nodes (1 not Ready, excluded), "
        "7 needed: lacks 2",
    )


def test_no_domain_at_the_level_while_a_wider_level_would_fit(project: Path) -> None:
    """No fallback: the site would hold the run, and the answer says so without using it."""
    result = _check(project, run_doc("h200-train", 4))
    assert not result.eligible
    assert _checks(result)["quota"][0] is True
    assert _checks(result)["topology"] == (
        False,
        "no single tau.azure.com/network-domain holds 4 ranks; the largest, eastus/ib-a, holds 3 ranks on "
        "3 Ready nodes (1 not Ready, excluded): lacks 1; tau.azure.com/site eastus would hold 5, but nothing "
        "falls back to a wider level: set policy.topology to same-site to use it",
    )
    assert result.domain is not None and result.domain.path == ("eastus", "ib-a")
    assert result.wider is not None and (result.wider.level, result.wider.ranks) == ("tau.azure.com/site", 5)


def test_torchrun_takes_one_host_per_rank(project: Path) -> None:
    """nvl72-a has GPUs for six 2-GPU ranks but three hosts: multi-node torchrun fits three."""
    result = _check(project, run_doc("gb200-island", 4, "torchrun", resources=GB200))
    assert _checks(result)["topology"] == (
        False,
        "no single tau.azure.com/accelerator-domain holds 4 ranks (multi-node torchrun: one rank per node); "
        "the largest, nvl72-a, holds 3 ranks on 3 Ready nodes: lacks 1; tau.azure.com/network-domain "
        "eastus/ib-g would hold 5, but nothing falls back to a wider level: set policy.topology to "
        "same-network-domain to use it",
    )


def test_without_torchrun_ranks_share_hosts(project: Path) -> None:
    """The same request without torchrun: two ranks per host; nvl72-b is the smallest that holds 4."""
    result = _check(project, run_doc("gb200-island", 4, resources=GB200))
    assert result.eligible
    assert _checks(result)["topology"] == (
        True,
        "tau.azure.com/accelerator-domain: best domain nvl72-b holds 4 ranks on 2 Ready nodes; headroom 0",
    )


def test_not_ready_nodes_are_excluded(project: Path) -> None:
    """a100-1 is not Ready: the one site holds a single 8-GPU rank, though quota counts both hosts."""
    result = _check(project, run_doc("a100-site", 2))
    checks = _checks(result)
    assert checks["quota"][0] is True
    assert checks["topology"] == (
        False,
        "no single tau.azure.com/site holds 2 ranks; the largest, eastus, holds 1 rank on 1 Ready node "
        "(1 not Ready, excluded): lacks 1",
    )
    assert result.wider is None  # the site is the widest level


def test_same_host(project: Path) -> None:
    result = _check(project, run_doc("a100-host", resources={"nvidia.com/gpu": 4}, workers=2))
    assert _checks(result)["topology"] == (
        True,
        "kubernetes.io/hostname: best domain a100-0 holds 2 ranks on 1 Ready node; headroom 0",
    )


def test_text_says_eligible_never_will_run(project: Path) -> None:
    text = as_text(_check(project, run_doc("h200-train", 2, "torchrun", name="llama")))
    assert text.splitlines()[0] == "preflight: run llama in team-a, cluster lab: eligible"
    assert text.splitlines()[-1] == (
        "eligible: Kueue can admit the run once the capacity it needs is free; nothing is reserved "
        "before admission"
    )
    assert "will run" not in text


def test_text_of_a_run_that_is_not_eligible(project: Path) -> None:
    text = as_text(_check(project, run_doc("a100-site", 2, name="eval")))
    assert text == (
        "preflight: run eval in team-a, cluster lab: not eligible\n"
        "  policy    profile a100-site, tier default, gpu-class a100-80gb, topology same-site\n"
        "  request   2 workers, each nvidia.com/gpu 8, cpu 90, memory 1600Gi\n"
        "  ok    profile   a100-site is ready in cluster lab\n"
        "  ok    flavor    taugrid-a100-80gb (nodeLabels tau.azure.com/gpu-class=a100-80gb)\n"
        "  ok    quota     ClusterQueue taugrid, flavor taugrid-a100-80gb: cpu 180 of 100k, memory 3200Gi of "
        "100Ti, nvidia.com/gpu 16 of 16\n"
        "  FAIL  topology  no single tau.azure.com/site holds 2 ranks; the largest, eastus, holds 1 rank "
        "on 1 Ready node (1 not Ready, excluded): lacks 1\n"
        "not eligible: as written, the run would stay pending\n"
    )


def test_json(project: Path) -> None:
    body = json.loads(as_json(_check(project, run_doc("h200-train", 4))))
    assert (body["verdict"], body["eligible"], body["workers"]) == ("not eligible", False, 4)
    assert [(c["id"], c["ok"]) for c in body["checks"]] == [
        ("profile", True),
        ("flavor", True),
        ("quota", True),
        ("topology", False),
    ]
    assert body["domain"] == {
        "role": "largest",
        "level": "tau.azure.com/network-domain",
        "name": "eastus/ib-a",
        "path": ["eastus", "ib-a"],
        "ranks": 3,
        "readyNodes": 3,
        "notReadyNodes": 1,
        "lacks": 1,
    }
    assert body["widerDomain"]["name"] == "eastus" and body["widerDomain"]["headroom"] == 1
