"""Issue 20: the bundled CRDs, their CEL rules' coverage, the gate, sizes, and the example's tree."""

from __future__ import annotations

import filecmp
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.validate import ValidateOptions, validate_paths
from taugen.errors import FoundProblems
from taugen.validate.cel import TRANSITION, compiled
from taugen.validate.celrules import BUNDLED, GROUP_LINE, RULES_KEY, bundled_files, schemas_of
from taugen.validate.crd import crd_documents
from taugen.validate.gate import check_tree
from taugen.validate.objects import MAX_FILE
from tests.conftest import REPO, SHARED

PROJECTS = ("grove", "kai", "kueue", "lws", "nfd")


def _rules(schema: dict[str, Any]) -> list[str]:
    found = [str(r["rule"]) for r in schema.get(RULES_KEY) or []]
    for sub in (schema.get("properties") or {}).values():
        found += _rules(sub)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _rules(schema[key])
    return found


def _bundled_rules() -> list[str]:
    return [
        rule for path in bundled_files() for schema in schemas_of(path).values() for rule in _rules(schema)
    ]


def test_the_bundle_holds_each_project_with_its_source() -> None:
    assert sorted(p.name for p in BUNDLED.iterdir() if p.is_dir()) == list(PROJECTS)
    for project in PROJECTS:
        assert (BUNDLED / project / "SOURCE.md").is_file(), project
        assert any(p.suffix == ".yaml" for p in (BUNDLED / project).iterdir()), project


def test_the_bundle_is_the_upstream_crds_unchanged() -> None:
    if not (SHARED / "crds").is_dir():
        pytest.skip(f"{SHARED / 'crds'} is absent")
    for project in PROJECTS:
        ours, theirs = BUNDLED / project, SHARED / "crds" / project
        names = sorted(p.name for p in theirs.iterdir())
        assert sorted(p.name for p in ours.iterdir()) == names, project
        _, mismatch, errors = filecmp.cmpfiles(ours, theirs, names, shallow=False)
        assert mismatch == errors == [], project


def test_a_bundled_file_is_read_for_the_groups_its_text_names() -> None:
    # celrules reads a bundled file only for an object of a group it finds by a regex in the text
    for path in bundled_files():
        parsed = {str(doc["spec"]["group"]) for doc in crd_documents(path)}
        assert set(GROUP_LINE.findall(path.read_text())) == parsed, path.name


def test_every_bundled_rule_is_checked_but_the_transition_rules() -> None:
    rules = _bundled_rules()
    why = Counter(compiled(rule).why_not for rule in rules)
    assert len(rules) == 45  # Kueue v0.19.2 (v1beta1 and v1beta2, MultiKueue) 42, KAI's Topology 3
    assert why == {None: 32, TRANSITION: 13}, why
    assert all(("oldSelf" in rule) == (compiled(rule).why_not == TRANSITION) for rule in rules)


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


def test_the_gate_never_writes_a_tree_the_api_server_refuses_by_a_cel_rule(tmp_path: Path) -> None:
    flavor = _flavor(topologyName="gpu-topology")  # a TAS flavor without node labels
    text = yaml.safe_dump(flavor).encode()
    with pytest.raises(FoundProblems) as raised:
        check_tree(tmp_path, {"c1": ({"flavors.yaml": [flavor]}, {"flavors.yaml": text})})
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
    # The repository's own out/ passes every check, CEL included; only transition rules are noted.
    monkeypatch.chdir(REPO)
    report = validate_paths(ValidateOptions(project_file=REPO / "taugen.yaml"))
    assert len(report.results) > 50
    assert report.findings == [], [f.problem.render() for f in report.findings]
    assert report.unchecked and {u.why for u in report.unchecked} == {TRANSITION}
