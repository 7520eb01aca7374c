"""R49 through the CLI: validate and build warn at a weight Kueue, recorded without fair sharing,
does not read (exit 0); simulate decides as Kueue's fair sharing when it is recorded on, and
says so in its notes and JSON."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path

import yaml

from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT

LAB = Path(__file__).resolve().parents[1] / "cases" / "simulate" / "lab.yaml"
WARNING = (
    "tenant team-a has weight 2, but cluster lab's Kueue is recorded without fair sharing "
    "(kueue.fairSharing, default off): its ClusterQueue's fairSharing.weight does nothing"
)
HINT = (
    "  hint: when the cluster's Kueue runs with fair sharing, record it as Kueue's configuration "
    "has it (kueue: {fairSharing: {enable: true}}); else remove the weight"
)


def _lab(root: Path, kueue: Mapping[str, object] | None, weight: bool = False) -> Path:
    """The lab project (tests/cases/runs/project) with team-a guaranteed 8 H200 GPUs."""
    shutil.copytree(PROJECT, root)
    doc = yaml.safe_load((root / "taugen.yaml").read_text())
    cluster = doc["clusters"][0]
    cluster["tenants"][0] |= {"guaranteed": {"h200-141gb": 8}} | ({"weight": 2} if weight else {})
    if kueue is not None:
        cluster["kueue"] = kueue
    return write_yaml(root / "taugen.yaml", doc)


def test_build_and_validate_warn_at_the_weight(run: Run, tmp_path: Path) -> None:
    project = _lab(tmp_path / "lab", {"fairSharing": {"enable": False}}, weight=True)
    ((line, col),) = [
        (i, t.index("weight: 2") + 9)
        for i, t in enumerate(project.read_text().splitlines(), 1)
        if "weight: 2" in t
    ]
    built = run("build", "-c", project)
    assert built.exit_code == 0, built.output
    warned = built.stderr.splitlines()
    at = warned.index(f"{project}:{line}:{col}: warning: {WARNING} [R49]")  # beside R26's first-build one
    assert warned[at + 1] == HINT
    validated = run("validate", "-c", project)
    assert validated.exit_code == 0, validated.output
    assert validated.stdout.splitlines()[:2] == [
        f"{project}:{line}:{col}: warning: Project: {WARNING} (R49)",
        HINT,
    ]
    body = json.loads(run("validate", "-c", project, "-o", "json").stdout)
    assert body["project"] == [
        {
            "file": str(project),
            "line": line,
            "col": col,
            "severity": "warning",
            "rule": "R49",
            "message": WARNING,
            "hint": HINT.removeprefix("  hint: "),
        }
    ]


def test_simulate_says_fair_sharing_decided(run: Run, tmp_path: Path) -> None:
    """On: the note names the strategies and says fair sharing decided, the JSON carries it;
    here no run borrows, so the answer is the classical one. Off or absent: as before."""
    answers = {}
    for name, kueue in (
        ("absent", None),
        ("on", {"fairSharing": {"enable": True, "preemptionStrategies": ["LessThanInitialShare"]}}),
    ):
        project = _lab(tmp_path / name, kueue)
        assert run("build", "-c", project).exit_code == 0
        result = run("simulate", LAB, "-c", project, "-o", "json")
        assert result.exit_code == 0, result.output
        answers[name] = json.loads(result.stdout)
    assert answers["absent"]["notes"] == [
        "preemption is Kueue's classical preemption on quota (fair sharing off): a run held back by "
        "topology alone preempts nothing, and a preempted run is not admitted again (T8)"
    ]
    assert "fairSharing" not in answers["absent"]
    assert answers["on"]["notes"] == [
        "preemption and order are Kueue's fair sharing, as the cluster's Kueue runs it (taugen.yaml "
        "kueue.fairSharing, preemptionStrategies LessThanInitialShare): each cycle takes its heads in "
        "the order of the dominant-resource-share (DRS) tournament over the cohort tree, weighted by "
        "fairSharing.weight, and a run preempts by those strategies (borrowWithinCohort is not read); "
        "a run held back by topology alone preempts nothing, and a preempted run is not admitted "
        "again (R49, R52)"
    ]
    assert answers["on"]["fairSharing"] == {"applied": True, "preemptionStrategies": ["LessThanInitialShare"]}
    assert answers["on"]["runs"] == answers["absent"]["runs"]
