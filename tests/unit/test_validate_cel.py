"""Issue 20 and 30: CEL rules of the CRDs a user gives (none ship with taugen), their coverage on
the upstream CRDs (../shared/crds, read there), the gate, sizes, and the example's tree."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.core.errors import FoundProblems
from taugen.validate.cel import TRANSITION, compiled
from taugen.validate.celrules import RULES_KEY
from taugen.validate.crd import load_crds
from taugen.validate.gate import check_tree
from taugen.validate.objects import MAX_FILE
from tests.conftest import REPO, shared_crds

WIDGET_CRD = REPO / "tests" / "cases" / "validate" / "crd-cel-rules" / "widget-crd.yaml"  # the team's own


def _rules(schema: dict[str, Any]) -> list[str]:
    found = [str(r["rule"]) for r in schema.get(RULES_KEY) or []]
    for sub in (schema.get("properties") or {}).values():
        found += _rules(sub)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _rules(schema[key])
    return found


def _upstream_rules(*projects: str) -> list[str]:
    crds = {k: v for project in projects for k, v in load_crds(shared_crds(project)).items()}
    return [rule for crd in crds.values() for rule in _rules(crd.openapi)]


def test_every_upstream_rule_is_checked_but_the_transition_rules() -> None:
    rules = _upstream_rules("kueue", "kai", "nfd", "grove")
    why = Counter(compiled(rule).why_not for rule in rules)
    assert len(rules) == 45  # Kueue v0.19.2 (v1beta1 and v1beta2, MultiKueue) 42, KAI's Topology 3
    assert why == {None: 32, TRANSITION: 13}, why
    assert all(("oldSelf" in rule) == (compiled(rule).why_not == TRANSITION) for rule in rules)


def test_the_teams_own_crd_has_checked_and_unchecked_rules() -> None:
    # the rule engine's own fixture (tests/cases/validate/crd-cel-rules): no upstream file
    rules = [rule for crd in load_crds(WIDGET_CRD).values() for rule in _rules(crd.openapi)]
    assert [compiled(rule).why_not is None for rule in rules] == [True, False, False, True]
    assert compiled(rules[2]).why_not == TRANSITION


def test_a_rule_with_an_extension_or_syntax_cel_python_lacks_is_not_checked() -> None:
    assert "isSorted" in str(compiled("self.isSorted()").why_not)
    assert "quantity" in str(compiled("quantity(self.q).isGreaterThan(quantity('1'))").why_not)
    assert "cannot parse" in str(compiled("self.?x.orValue(1) == 1").why_not)
    assert compiled("self.all(x, x.startsWith('a'))").why_not is None


def _flavor(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "ResourceFlavor",
        "metadata": {"name": "f"},
        "spec": spec,
    }


def test_the_gate_never_writes_a_tree_a_given_crds_cel_rule_refuses(tmp_path: Path) -> None:
    flavor = _flavor(topologyName="gpu-topology")  # a TAS flavor without node labels
    text = yaml.safe_dump(flavor).encode()
    crds = (shared_crds("kueue"),)
    with pytest.raises(FoundProblems) as raised:
        check_tree(tmp_path, {"c1": ({"flavors.yaml": [flavor]}, {"flavors.yaml": text})}, crds)
    assert any(
        "at least one nodeLabel is required when topology is set" in line for line in raised.value.lines
    )


def test_a_list_over_its_max_items_is_left_to_the_schema(tmp_path: Path) -> None:
    # Kueue allows 8 tolerations; 5,000 reach no CEL rule (whose cost would grow without bound)
    many = [{"key": f"k{i}", "operator": "Exists", "value": "v"} for i in range(5000)]
    path = tmp_path / "flavor.yaml"
    path.write_text(yaml.safe_dump(_flavor(tolerations=many)))
    report = validate_paths(ValidateOptions(paths=(path,)))
    rules = {f.problem.rule for f in report.findings}
    assert "cel" not in rules and not report.valid, rules


def test_a_file_over_one_mebibyte_is_an_error(tmp_path: Path) -> None:
    # G2: at most 1 MiB; a build writes node shards' files under it (the 100,000-node
    # benchmark's largest is 310,938 bytes), so a larger file was not written by taugen
    one = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "a"}, "data": {"k": "x" * 1000}}
    docs = [{**one, "metadata": {"name": f"c{i}", "namespace": "a"}} for i in range(1100)]
    path = tmp_path / "configmaps.yaml"
    path.write_text(yaml.safe_dump_all(docs))
    assert path.stat().st_size > MAX_FILE
    report = validate_paths(ValidateOptions(paths=(path,)))
    sizes = [f.problem for f in report.findings if f.problem.rule == "size"]
    assert [(p.line, p.severity, p.message.split(";")[0]) for p in sizes] == [
        (1, "error", f"the file is {path.stat().st_size:,} bytes")
    ]
    assert not report.valid


def test_no_object_of_the_example_is_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    # The repository's own out/ passes every check, the upstream CEL rules included; only
    # transition rules are noted.
    monkeypatch.chdir(REPO)
    crds = tuple(shared_crds(p) for p in ("kueue", "kai", "nfd", "grove"))
    report = validate_paths(ValidateOptions(project_file=REPO / "taugen.yaml", crds=crds))
    assert len(report.results) > 50
    assert report.findings == [], [f.problem.render() for f in report.findings]
    assert report.unchecked and {u.why for u in report.unchecked} == {TRANSITION}
    assert report.without_crd == {}


def test_without_crds_the_report_names_each_group_not_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    report = validate_paths(ValidateOptions(project_file=REPO / "taugen.yaml"))
    assert report.findings == [] and report.unchecked == []
    kinds = Counter(
        str(r.resource.obj["apiVersion"]).rpartition("/")[0]
        for r in report.results
        if r.schema_source == "taugen"
    )
    assert report.without_crd == dict(sorted(kinds.items()))
    assert set(report.without_crd) == {
        "grove.io",
        "kai.scheduler",
        "kueue.x-k8s.io",
        "nfd.k8s-sigs.io",
        "scheduling.run.ai",
    }
