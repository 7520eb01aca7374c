"""Issue 24: a Run's required node affinity (`policy.node_affinity`): rendered on every pod
template as one nodeSelectorTerm, refused with its position when Kubernetes would refuse it,
and matched as Kubernetes matches it (labels.Requirement)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taugen.core.errors import InputError
from taugen.engines.runs.render import patch, render
from taugen.models.node_filters import NodeRequirement, affinity_matches
from tests.support.kai import build_kai_lab
from tests.support.runs import build_lab, context_of, objects_of, run_doc

GPU4 = {"nvidia.com/gpu": 4}
AWAY = [
    {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": ["gb200-a0", "gb200-a1"]},
    {"key": "example.com/healthy", "operator": "Exists"},
]
RENDERED = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {
                            "key": "kubernetes.io/hostname",
                            "operator": "NotIn",
                            "values": ["gb200-a0", "gb200-a1"],
                        },
                        {"key": "example.com/healthy", "operator": "Exists"},
                    ]
                }
            ]
        }
    }
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _lws(**fields: Any) -> dict[str, Any]:
    doc = run_doc("gb200-island", workload="leaderworkerset", replicas=1, size=2, resources=GPU4, **fields)
    del doc["workers"]
    return doc


def test_a_job_carries_the_affinity_beside_its_selector(project: Path) -> None:
    doc = run_doc("gb200-island", workers=2, resources=GPU4, policy={"node_affinity": AWAY})
    pod = objects_of(render(context_of(project, doc)))[0]["spec"]["template"]["spec"]
    assert (pod["nodeSelector"], pod["affinity"]) == ({"tau.azure.com/gpu-class": "gb200-186gb"}, RENDERED)


def test_both_templates_of_a_leaderworkerset_carry_it(project: Path) -> None:
    lws = objects_of(render(context_of(project, _lws(policy={"node_affinity": AWAY}))))[0]
    template = lws["spec"]["leaderWorkerTemplate"]
    assert [template[t]["spec"]["affinity"] for t in ("leaderTemplate", "workerTemplate")] == [RENDERED] * 2


def test_the_patch_carries_it(project: Path) -> None:
    doc = run_doc("gb200-island", resources=GPU4, policy={"node_affinity": AWAY})
    assert patch(context_of(project, doc))["spec"]["template"]["spec"]["affinity"] == RENDERED


def test_a_kai_run_carries_it(tmp_path: Path) -> None:
    lab = build_kai_lab(tmp_path / "kai")
    doc = run_doc("gb200-island", cluster="lab-kai", resources=GPU4, policy={"node_affinity": AWAY})
    pod = objects_of(render(context_of(lab, doc)))[0]["spec"]["template"]["spec"]
    assert pod["affinity"] == RENDERED


def test_no_affinity_renders_none(project: Path) -> None:
    pod = objects_of(render(context_of(project, run_doc("gb200-island", resources=GPU4))))[0]
    assert "affinity" not in pod["spec"]["template"]["spec"]


INTEGER = "give one integer under `values`, e.g. values: ['3']"


@pytest.mark.parametrize(
    ("requirement", "at", "message", "hint"),
    [
        (
            {"key": "pool", "operator": "In"},
            (17, 5),
            "In needs at least one value",
            "list one or more label values under `values`",
        ),
        (
            {"key": "pool", "operator": "Exists", "values": ["a"]},
            (17, 5),
            "Exists takes no values",
            "remove `values`: Exists only asks that the label is there",
        ),
        (
            {"key": "gen", "operator": "Gt", "values": ["x"]},
            (17, 5),
            "Gt takes exactly one integer value, not ['x']",
            INTEGER,
        ),
        (
            {"key": "gen", "operator": "Lt", "values": ["1", "2"]},
            (17, 5),
            "Lt takes exactly one integer value, not ['1', '2']",
            INTEGER,
        ),
        (
            {"key": "pool", "operator": "In", "values": ["a b"]},
            (17, 5),
            "value 'a b' must be empty or start and end with a letter or digit, with only letters, digits, "
            "'-', '_' and '.' between",
            "write each value as a label value, e.g. h200-pool",
        ),
    ],
)
def test_what_kubernetes_refuses_is_bad_input(
    project: Path, requirement: dict[str, Any], at: tuple[int, int], message: str, hint: str
) -> None:
    """The whole problem: the requirement's position (line 17 of the written run file), the
    message under its path, and how to fix it."""
    doc = run_doc("gb200-island", resources=GPU4, policy={"node_affinity": [requirement]})
    with pytest.raises(InputError) as caught:
        context_of(project, doc)
    assert [(p.line, p.col, p.rule, p.message, p.hint) for p in caught.value.problems] == [
        (*at, "run", f"policy.node_affinity.0: {message}", hint)
    ]


def test_a_key_and_an_operator_are_checked_where_they_are(project: Path) -> None:
    wrong = [{"key": "-pool", "operator": "In", "values": ["a"]}, {"key": "pool", "operator": "Near"}]
    doc = run_doc("gb200-island", resources=GPU4, policy={"node_affinity": wrong})
    with pytest.raises(InputError) as caught:
        context_of(project, doc)
    assert [(p.line, p.col, p.message.split(":")[0]) for p in caught.value.problems] == [
        (17, 10, "policy.node_affinity.0.key"),
        (22, 15, "policy.node_affinity.1.operator"),
    ]


def test_an_empty_affinity_is_bad_input(project: Path) -> None:
    doc = run_doc("gb200-island", resources=GPU4, policy={"node_affinity": []})
    with pytest.raises(InputError) as caught:
        context_of(project, doc)
    assert [p.rule for p in caught.value.problems] == ["run"]


def _req(key: str, operator: str, *values: str) -> NodeRequirement:
    return NodeRequirement.model_validate({"key": key, "operator": operator, "values": values})


@pytest.mark.parametrize(
    ("requirement", "labels", "matches"),
    [
        (_req("pool", "In", "a", "b"), {"pool": "b"}, True),
        (_req("pool", "In", "a"), {}, False),
        (_req("pool", "NotIn", "a"), {}, True),
        (_req("pool", "NotIn", "a"), {"pool": "a"}, False),
        (_req("pool", "Exists"), {"pool": ""}, True),
        (_req("pool", "DoesNotExist"), {"pool": ""}, False),
        (_req("gen", "Gt", "3"), {"gen": "4"}, True),
        (_req("gen", "Gt", "3"), {"gen": "3"}, False),
        (_req("gen", "Lt", "10"), {"gen": "9"}, True),  # integers, not text: "9" > "10"
        (_req("gen", "Gt", "3"), {"gen": "four"}, False),  # not an integer: no match
        (_req("gen", "Lt", "3"), {}, False),
    ],
)
def test_requirements_match_as_kubernetes_does(
    requirement: NodeRequirement, labels: dict[str, str], matches: bool
) -> None:
    assert requirement.matches(labels) is matches


def test_terms_are_ored_and_requirements_anded() -> None:
    a, b = _req("pool", "In", "a"), _req("zone", "In", "z1")
    assert [
        affinity_matches([[a, b]], {"pool": "a"}),
        affinity_matches([[a, b]], {"pool": "a", "zone": "z1"}),
        affinity_matches([[a], [b]], {"zone": "z1"}),
        affinity_matches([[]], {"pool": "a"}),  # an empty term matches no node
    ] == [False, True, True, False]
