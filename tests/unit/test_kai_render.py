"""Rendering for KAI (K4) and LeaderWorkerSet runs for both schedulers (K5); KAI preflight (§8).

Regenerate the golden renders, then read the diff, with:

TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/unit/test_kai_render.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.commands.preflight.check import preflight
from taugen.engines.runs.render import FORMATS, Format, render
from taugen.engines.runs.resolution import resolve_run
from taugen.models.profile import ProfileTopology
from taugen.resolve.labels import LEVELS
from tests.support.helpers import assert_golden
from tests.support.kai import KAI_RUNS, build_kai_lab
from tests.support.runs import context_of, objects_of, run_doc

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "kai" / "runs"
CASES = sorted(p.stem for p in KAI_RUNS.glob("*.yaml"))
SNAPSHOTS = [(case, fmt) for case in CASES for fmt in FORMATS]
PREFERRED = "kai.scheduler/topology-preferred-placement"
REQUIRED = "kai.scheduler/topology-required-placement"
PROFILES = {  # one profile of the lab per topology value
    ProfileTopology.UNCONSTRAINED: "h200-any",
    ProfileTopology.SAME_HOST: "a100-host",
    ProfileTopology.SAME_ACCELERATOR_DOMAIN: "gb200-island",
    ProfileTopology.SAME_NETWORK_DOMAIN: "h200-train",
    ProfileTopology.SAME_SITE: "a100-site",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kai_lab(tmp_path_factory.mktemp("kai-lab"))


def test_the_cases_cover_k4_and_k5() -> None:
    assert {"kai-torchrun", "kai-lws-island", "kueue-lws-island", "kai-job-same-host"} <= set(CASES)


@pytest.mark.parametrize(("case", "fmt"), SNAPSHOTS, ids=[f"{c}.{f}" for c, f in SNAPSHOTS])
def test_snapshot(project: Path, case: str, fmt: Format) -> None:
    rendered = render(resolve_run(KAI_RUNS / f"{case}.yaml", project), fmt)
    assert_golden(rendered, GOLDEN / f"{case}.{fmt}.yaml", __file__)


def test_every_golden_file_is_checked() -> None:
    assert {p.name for p in GOLDEN.iterdir()} == {f"{c}.{f}.yaml" for c, f in SNAPSHOTS}


@pytest.mark.parametrize("workload", ["job", "leaderworkerset"])
@pytest.mark.parametrize("topology", list(PROFILES))
def test_no_preferred_level_at_or_above_the_required_one(
    project: Path, topology: ProfileTopology, workload: str
) -> None:
    """K4: a preferred level at or above the required one does nothing in KAI and is never written;
    below it (or with no required level) it is the host, Run:ai's automatic preference."""
    doc = run_doc(PROFILES[topology], cluster="lab-kai", workload=workload, resources={"nvidia.com/gpu": 1})
    if workload == "leaderworkerset":
        doc.update(replicas=2, size=2)
        del doc["workers"]
    owner = objects_of(render(context_of(project, doc)))[0]
    annotations = owner["metadata"]["annotations"]
    required, preferred = annotations.get(REQUIRED), annotations.get(PREFERRED)
    if required is not None and preferred is not None:
        assert LEVELS.index(preferred) > LEVELS.index(required)
    expected_preferred = None if required == "kubernetes.io/hostname" else "kubernetes.io/hostname"
    assert (required is None) == (topology == ProfileTopology.UNCONSTRAINED)
    assert preferred == expected_preferred


def test_kueue_lws_leader_and_workers_share_one_pod_set_group(project: Path) -> None:
    """K5: the same TAS annotation and podset-group-name on both templates, per replica."""
    lws = objects_of(render(resolve_run(KAI_RUNS / "kueue-lws-island.yaml", project)))[0]
    template = lws["spec"]["leaderWorkerTemplate"]
    wanted = {
        "kueue.x-k8s.io/podset-required-topology": "tau.azure.com/accelerator-domain",
        "kueue.x-k8s.io/podset-group-name": "gb200-serve",
    }
    assert template["leaderTemplate"]["metadata"]["annotations"] == wanted
    assert template["workerTemplate"]["metadata"]["annotations"] == wanted


def test_kai_preflight_reports_over_quota_but_stays_eligible(project: Path) -> None:
    """§8: a leaf's quota is what it deserves, not a cap: team-b (quota 0) is eligible, and told."""
    result = preflight(resolve_run(KAI_RUNS / "kai-lws-island.yaml", project))
    quota = next(c for c in result.checks if c.id == "quota")
    assert result.eligible
    assert quota.message == (
        "Queue taugrid-team-b: nvidia.com/gpu 16 of quota 0: 16 over quota, allowed while GPUs are free "
        "(over-quota work is reclaimed first)"
    )


def test_kai_preflight_still_needs_one_domain_at_the_required_level(project: Path) -> None:
    doc = run_doc("gb200-island", cluster="lab-kai", workload="leaderworkerset", replicas=1, size=40)
    doc["resources"] = {"nvidia.com/gpu": 4}
    del doc["workers"]
    result = preflight(context_of(project, doc))
    assert not result.eligible
    assert [c.id for c in result.checks if not c.ok] == ["topology"]
