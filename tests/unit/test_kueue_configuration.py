"""R49 (issue 35): a Kueue cluster records how its Kueue is configured (`kueue.fairSharing`,
Kueue v0.19.2's apis/config/v1beta1 FairSharingConfig: `enable`, `preemptionStrategies`; the lists
pkg/config/validation.go accepts, defaulted by apis/config/v1beta1/defaults.go). taugen writes
no Kueue configuration: the trees are the same with or without it. A guaranteed tenant's weight
(T2's fairSharing.weight) with fair sharing recorded off is a warning at the weight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import taugen.schedulers.registry  # noqa: F401  completes Project
from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.core.errors import Problem
from taugen.schedulers.kueue.model import FairSharingConfig, KueueCluster, KueueConfiguration
from tests.support.helpers import snapshot
from tests.support.unit import problems_of, run_build
from tests.unit.test_cohorts import TEAM_A, TEAM_B, TEAM_C, cohort_project

ON = {"fairSharing": {"enable": True}}
BOTH = ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
WARNING_HINT = (
    "when the cluster's Kueue runs with fair sharing, record it as Kueue's configuration has it "
    "(kueue: {fairSharing: {enable: true}}); else remove the weight"
)


def _cluster(**fields: Any) -> KueueCluster:
    base = {"name": "c1", "inventory": "inventory.yaml", "tenants": [{"namespace": "team-a"}]}
    return KueueCluster.model_validate(base | fields)


@pytest.mark.parametrize(
    ("kueue", "expected", "strategies"),
    [
        (None, KueueConfiguration(), None),
        ({}, KueueConfiguration(), None),
        (
            {"fairSharing": {"enable": False}},
            KueueConfiguration(fairSharing=FairSharingConfig(enable=False)),
            None,
        ),
        (ON, KueueConfiguration(fairSharing=FairSharingConfig(enable=True)), BOTH),
        (
            {"fairSharing": {"enable": True, "preemptionStrategies": ["LessThanInitialShare"]}},
            KueueConfiguration(
                fairSharing=FairSharingConfig(enable=True, preemptionStrategies=["LessThanInitialShare"])
            ),
            ("LessThanInitialShare",),
        ),
        (
            {"fairSharing": {"enable": True, "preemptionStrategies": []}},  # Kueue defaults an empty list
            KueueConfiguration(fairSharing=FairSharingConfig(enable=True)),
            BOTH,
        ),
        (
            # off, Kueue reads no list (apis/config/v1beta1 conversion drops fairSharing): nor does taugen
            {"fairSharing": {"enable": False, "preemptionStrategies": list(reversed(BOTH))}},
            KueueConfiguration(
                fairSharing=FairSharingConfig(enable=False, preemptionStrategies=list(reversed(BOTH)))
            ),
            None,
        ),
    ],
    ids=["absent", "empty", "off", "on", "one-strategy", "empty-list", "off-ignores-list"],
)
def test_the_recorded_configuration(
    kueue: dict[str, Any] | None, expected: KueueConfiguration, strategies: tuple[str, ...] | None
) -> None:
    cluster = _cluster(**({} if kueue is None else {"kueue": kueue}))
    assert cluster.kueue == expected
    found = cluster.fair_sharing
    assert (found.strategies if found is not None else None) == strategies
    assert cluster.weights_apply is (strategies is not None)


def _problems(root: Path, kueue: Any, tenants: list[dict[str, Any]] | None = None) -> list[Problem]:
    project = cohort_project(root, tenants or [TEAM_C], kueue=kueue)
    before = snapshot(root)
    problems = problems_of(lambda: run_build(project))
    assert snapshot(root) == before
    return problems


def _where(root: Path, problem: Problem) -> str:
    """The text at the problem's position in taugen.yaml."""
    line = (root / "taugen.yaml").read_text().splitlines()[problem.line - 1]
    return line[problem.col - 1 :]


SETS = (
    "[LessThanOrEqualToFinalShare] or [LessThanInitialShare] or "
    "[LessThanOrEqualToFinalShare, LessThanInitialShare]"
)


@pytest.mark.parametrize(
    ("kueue", "expected", "at"),
    [
        (
            {"fairSharing": {"enable": True, "preemptionStrategies": list(reversed(BOTH))}},
            (
                "R49",
                "clusters.0.kueue.fairSharing.preemptionStrategies: Kueue accepts no preemptionStrategies "
                "[LessThanInitialShare, LessThanOrEqualToFinalShare]",
                f"write {SETS}, as the cluster's Kueue configuration has it",
            ),
            "- LessThanInitialShare",
        ),
        (
            {"fairSharing": {"enable": True, "preemptionStrategies": ["LessThanInitialShare"] * 2}},
            (
                "R49",
                "clusters.0.kueue.fairSharing.preemptionStrategies: Kueue accepts no preemptionStrategies "
                "[LessThanInitialShare, LessThanInitialShare]",
                f"write {SETS}, as the cluster's Kueue configuration has it",
            ),
            "- LessThanInitialShare",
        ),
        (
            {"fairSharing": {"enable": True, "preemptionStrategies": ["LessThanFinalShare"]}},
            (
                "project",
                "clusters.0.kueue.fairSharing.preemptionStrategies.0: Input should be "
                "'LessThanOrEqualToFinalShare' or 'LessThanInitialShare'",
                "use one of 'LessThanOrEqualToFinalShare' or 'LessThanInitialShare'",
            ),
            "LessThanFinalShare",
        ),
        (
            {"fairSharing": {"preemptionStrategies": ["LessThanInitialShare"]}},
            ("project", "clusters.0.kueue.fairSharing.enable: required field is missing", "add 'enable'"),
            "preemptionStrategies:",
        ),
        (
            {"fairSharing": {"enable": "yes"}},
            (
                "project",
                "clusters.0.kueue.fairSharing.enable: Input should be a valid boolean",
                "write true or false",
            ),
            "'yes'",
        ),
        (
            {"fairsharing": {"enable": True}},
            ("project", "clusters.0.kueue.fairsharing: unknown key", "did you mean 'fairSharing'?"),
            "fairsharing:",
        ),
    ],
    ids=["order", "twice", "unknown-strategy", "no-enable", "enable-not-bool", "misspelt"],
)
def test_invalid_values_are_refused_at_their_position(
    tmp_path: Path, kueue: dict[str, Any], expected: tuple[str, str, str], at: str
) -> None:
    [problem] = _problems(tmp_path, kueue)
    assert (problem.rule, problem.message, problem.hint) == expected
    assert _where(tmp_path, problem).startswith(at)


def test_the_setting_changes_no_tree(tmp_path: Path) -> None:
    """taugen writes no Kueue configuration: on or off, out/ and taugen.lock are the same bytes."""
    trees = []
    for name, kueue in (("absent", None), ("on", ON), ("off", {"fairSharing": {"enable": False}})):
        root = tmp_path / name
        extra = {} if kueue is None else {"kueue": kueue}
        run_build(cohort_project(root, [TEAM_A, TEAM_B, TEAM_C], **extra))
        trees.append({k: v[0] for k, v in snapshot(root).items() if k != "taugen.yaml"})  # bytes
    assert trees[0] and trees[1] == trees[0] and trees[2] == trees[0]


def _warning(namespace: str, weight: int) -> tuple[str, str, str, str]:
    message = (
        f"tenant {namespace} has weight {weight}, but cluster c1's Kueue is recorded without fair "
        "sharing (kueue.fairSharing, default off): its ClusterQueue's fairSharing.weight does nothing"
    )
    return ("warning", "R49", message, WARNING_HINT)


@pytest.mark.parametrize(
    ("kueue", "warned"),
    [(None, True), ({"fairSharing": {"enable": False}}, True), (ON, False)],
    ids=["absent", "off", "on"],
)
def test_weights_without_fair_sharing_are_a_warning_at_the_weight(
    tmp_path: Path, kueue: dict[str, Any] | None, warned: bool
) -> None:
    """Build and validate give the same warning (one check, compile/guarantee_checks.py); a
    weight of 1 (the default, written or not) and a tenant without a guarantee are not warned."""
    team_b = TEAM_B | {"weight": 1}
    project = cohort_project(
        tmp_path, [TEAM_A, team_b, TEAM_C], **({} if kueue is None else {"kueue": kueue})
    )
    built = [p for p in run_build(project).warnings if p.rule == "R49"]
    report = validate_paths(ValidateOptions(project_file=project))
    validated = [f.problem for f in report.findings if f.problem.rule == "R49"]
    expected = [_warning("team-a", 3)] if warned else []
    assert [(p.severity, p.rule, p.message, p.hint) for p in built] == expected
    assert validated == built and report.valid
    assert [_where(tmp_path, p) for p in built] == (["3"] if warned else [])
    assert [f.subject for f in report.project] == (["Project"] if warned else [])
