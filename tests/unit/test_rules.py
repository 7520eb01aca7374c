"""Node label rules (SPEC §1.3): matching (R1), precedence (R2), gpu-class values (R3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.load.rules import load_rules
from taugen.resolve.rules import RuleSet
from tests.support.helpers import gpu_node, inventory, rules, write_yaml
from tests.support.unit import (
    API_VERSION,
    labels_by_node,
    line_of,
    problems_of,
    profile,
    resolve_project,
    rules_of,
    run_build,
    write_profiles,
    write_project,
)

SERIES = "kueue.azure.com/gpu-series"
CLASS = "tau.azure.com/gpu-class"


@pytest.mark.parametrize(
    ("vm_size", "series", "gpu_class"),
    [
        ("Standard_ND96asr_v4", "nd-a100-v4", "a100-40gb"),
        ("Standard_ND96amsr_A100_v4", "ndm-a100-v4", "a100-80gb"),
        ("Standard_NC24ads_A100_v4", "nc-a100-v4", "a100-80gb"),
        ("Standard_NC48ads_A100_v4", "nc-a100-v4", "a100-80gb"),
        ("Standard_NC96ads_A100_v4", "nc-a100-v4", "a100-80gb"),
        ("Standard_ND96isr_H100_v5", "nd-h100-v5", "h100-80gb"),
        ("Standard_ND96isr_H200_v5", "nd-h200-v5", "h200-141gb"),
    ],
)
def test_r2_builtin_rules_table(vm_size: str, series: str, gpu_class: str) -> None:
    """R2: the built-in rules give exactly the table's gpu-series and gpu-class."""
    assert RuleSet([]).labels_for(vm_size) == {SERIES: series, CLASS: gpu_class}


def test_r1_vmsize_match_ignores_ascii_case() -> None:
    """R1: exact match ignoring ASCII case, in both directions."""
    assert RuleSet([]).labels_for("STANDARD_nd96ISR_h200_V5") == {SERIES: "nd-h200-v5", CLASS: "h200-141gb"}


def test_r1_vmsize_match_is_exact_not_prefix_or_substring() -> None:
    rule_set = RuleSet([])
    assert rule_set.labels_for("Standard_ND96isr_H200_v5_Promo") == {}
    assert rule_set.labels_for("ND96isr_H200_v5") == {}
    assert rule_set.labels_for(" Standard_ND96isr_H200_v5") == {}
    assert rule_set.labels_for(None) == {}


def test_r1_case_folding_is_ascii_only(tmp_path: Path) -> None:
    """R1: only ASCII case is ignored; the Kelvin sign is not an upper-case 'k' (str.lower() folds it)."""
    path = write_yaml(tmp_path / "rules.yaml", rules((["Standard_Kx"], {"example.com/pool": "kx"})))
    rule_set = RuleSet(load_rules(path))
    assert rule_set.labels_for("standard_kX") == {"example.com/pool": "kx"}
    assert rule_set.labels_for("Standard_\u212ax") == {}


@pytest.mark.parametrize(
    "rule",
    [
        {"match": {}, "labels": {"example.com/a": "b"}},
        {"labels": {"example.com/a": "b"}},
        {"match": {"vmSizes": []}, "labels": {"example.com/a": "b"}},
    ],
    ids=["empty-match", "no-match", "empty-vmsizes"],
)
def test_r1_rule_without_matcher_is_an_error(tmp_path: Path, rule: dict[str, object]) -> None:
    """R1: a rule with no matcher is an error, positioned in the rules file."""
    project = write_project(tmp_path, rules_doc={"extraNodeLabelRules": [rule]})
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("rules.yaml", "R1")]
    assert 2 <= problems[0].line <= 3 and problems[0].col > 0  # at the rule, not at the file's top
    assert not (tmp_path / "out").exists()


def test_r2_extra_rule_overrides_builtin_per_key(tmp_path: Path) -> None:
    """R2: built-ins first, then extra rules; per key the last match wins, other keys stay."""
    project = write_project(
        tmp_path,
        inventory([gpu_node("h200-0")]),
        rules((["Standard_ND96isr_H200_v5"], {SERIES: "custom-h200", "example.com/pool": "big"})),
    )
    labels = labels_by_node(resolve_project(project))["h200-0"]
    assert {k: v for k, v in labels.items() if k in (SERIES, CLASS, "example.com/pool")} == {
        SERIES: "custom-h200",
        CLASS: "h200-141gb",
        "example.com/pool": "big",
    }


def test_r2_later_rule_in_file_order_wins(tmp_path: Path) -> None:
    """R2: within one file and across files, the last matching rule wins for each key."""
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("x-0", vm_size="Standard_X")]))
    write_yaml(
        tmp_path / "a.yaml",
        rules(
            (["Standard_X"], {CLASS: "first-class", "example.com/a": "1"}),
            (["standard_x"], {CLASS: "second-class"}),
        ),
    )
    # The Helm-values shape in the second file: other chart values beside the rules are ignored.
    write_yaml(
        tmp_path / "b.yaml",
        {
            "tau-core-controller": {
                "image": {"tag": "1.0"},
                "tauCluster": {
                    "extraNodeLabelRules": [
                        {"match": {"vmSizes": ["STANDARD_X"]}, "labels": {SERIES: "x-series"}},
                        {"match": {"vmSizes": ["Standard_X"]}, "labels": {CLASS: "third-class"}},
                    ]
                },
            }
        },
    )
    project = write_yaml(
        tmp_path / "taugen.yaml",
        {
            "apiVersion": API_VERSION,
            "kind": "Project",
            "clusters": [
                {
                    "name": "c1",
                    "inventory": "inventory.yaml",
                    "rules": ["a.yaml", "b.yaml"],
                    "tenants": [{"namespace": "t"}],
                }
            ],
        },
    )
    labels = labels_by_node(resolve_project(project))["x-0"]
    assert {k: labels[k] for k in (CLASS, SERIES, "example.com/a")} == {
        CLASS: "third-class",
        SERIES: "x-series",
        "example.com/a": "1",
    }


def test_r2_bare_list_rules_file(tmp_path: Path) -> None:
    """§1.3: the rules may also be a bare top-level list."""
    path = write_yaml(
        tmp_path / "rules.yaml", [{"match": {"vmSizes": ["Standard_Y"]}, "labels": {CLASS: "y-1"}}]
    )
    assert RuleSet(load_rules(path)).labels_for("Standard_Y") == {CLASS: "y-1"}


@pytest.mark.parametrize(
    ("value", "hint_names"),
    [("nd-h200-v5", "h200-141gb"), ("ndm-a100-v4", "a100-80gb"), ("taugrid-h100-80gb", "h100-80gb")],
)
def test_r3_platform_identifier_rejected_in_rules(tmp_path: Path, value: str, hint_names: str) -> None:
    """R3: a gpu-series value or a taugrid- name is not a gpu-class; the hint names the class."""
    project = write_project(tmp_path, rules_doc=rules((["Standard_Z"], {CLASS: value})))
    problems = problems_of(lambda: run_build(project))
    where = ("rules.yaml", line_of(tmp_path / "rules.yaml", CLASS), "R3")
    assert [(p.path.name, p.line, p.rule) for p in problems] == [where]
    assert value in problems[0].message
    assert hint_names in problems[0].hint


def test_r3_series_of_an_extra_rule_is_rejected_as_class(tmp_path: Path) -> None:
    """R3: 'any gpu-series value' includes series that extra rules define."""
    project = write_project(
        tmp_path,
        rules_doc=rules(
            (["Standard_A"], {SERIES: "custom-gb200", CLASS: "gb200-186gb"}),
            (["Standard_B"], {CLASS: "custom-gb200"}),
        ),
    )
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["R3"]
    assert "gb200-186gb" in problems[0].hint


@pytest.mark.parametrize("value", ["nd-h100-v5", "taugrid-h100"])
def test_r3_platform_identifier_rejected_in_profiles(tmp_path: Path, value: str) -> None:
    """R3: the same check applies to a profile's policy.gpu_class."""
    project = write_project(
        tmp_path, profiles=write_profiles(tmp_path, profile("bad", gpu_class=value), profile("ok"))
    )
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("bad.yaml", "R3")]
    assert problems[0].line == line_of(tmp_path / "profiles" / "bad.yaml", "gpu_class:")
    assert "h100" in problems[0].hint
    assert not (tmp_path / "out").exists()


def test_r4_hint_offers_the_vm_size_a_typo_meant(tmp_path: Path) -> None:
    """Issue 21: `Standard_ND96isr_H10_v5` is one letter off a built-in size."""
    node = gpu_node("h-0", vm_size="Standard_ND96isr_H10_v5")
    project = write_project(tmp_path, inventory([node]))
    (problem,) = problems_of(lambda: run_build(project))
    assert problem.hint == (
        "did you mean Standard_ND96isr_H100_v5 (h100-80gb)? otherwise add an extraNodeLabelRules entry "
        "matching vmSize Standard_ND96isr_H10_v5 with a tau.azure.com/gpu-class label"
    )


def test_r4_hint_guesses_nothing_for_a_size_far_from_any(tmp_path: Path) -> None:
    node = gpu_node("x-0", vm_size="Standard_NV36ads_A10_v5")
    (problem,) = problems_of(lambda: run_build(write_project(tmp_path, inventory([node]))))
    assert problem.hint.startswith("add an extraNodeLabelRules entry")
