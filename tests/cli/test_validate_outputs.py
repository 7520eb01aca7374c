"""`taugen validate`'s three renderings agree, and its exit codes for usage errors (issue 3).

The valid tree is the corpus's built tree as it is; the broken tree is that tree with four
faults written into four of its files (five findings: one fault breaks a priority pair too).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_validate_cases import CASES, Found, Printed, parse_text
from tests.conftest import REPO, SHARED, Run

BUILT = CASES / "valid-built-tree"
NOT_FOUND_NOTE = "kubeconform: not found on PATH; skipped"

# (file, text in the built tree, its replacement): each one breaks one object.
FAULTS = (
    ("localqueues.yaml", "clusterQueue: taugrid", "clusterQueue: taugrid-typo"),
    ("clusterqueue.yaml", "nominalQuota: '16'", "nominalQuota: 16000m"),
    ("nodes/h200-141gb.yaml", "  name: h200-1\n", "  name: h200-1\n  nmae: h200-1\n"),
    ("priorityclasses.yaml", "value: 1200", "value: high"),
)
# what the faults above make taugen report, per resource: file, Kind/name -> (line, col, rule)
BROKEN: dict[tuple[str, str], list[tuple[int, int, str]]] = {
    ("localqueues.yaml", "LocalQueue/team-a/taugrid"): [(14, 17, "localqueue-clusterqueue")],
    ("clusterqueue.yaml", "ClusterQueue/taugrid"): [(46, 23, "canonical-quantity")],
    ("nodes/h200-141gb.yaml", "Node/h200-1"): [(24, 3, "schema")],  # the unknown key
    ("priorityclasses.yaml", "PriorityClass/taugrid-priority"): [(27, 8, "schema")],
    # the PriorityClass's value no longer pairs it with its WorkloadPriorityClass
    ("workloadpriorityclasses.yaml", "WorkloadPriorityClass/taugrid-priority"): [(23, 8, "priority-pairs")],
}

PerResource = dict[tuple[str, str], list[tuple[int, int, str, str]]]


def _valid_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "valid"
    shutil.copytree(BUILT, tree, ignore=shutil.ignore_patterns("expected.yaml"))
    return tree


def _broken_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "broken"
    shutil.copytree(BUILT, tree, ignore=shutil.ignore_patterns("expected.yaml"))
    for rel, old, new in FAULTS:
        text = (tree / rel).read_text()
        assert text.count(old) == 1, f"{rel}: the fault {old!r} no longer matches the built tree"
        (tree / rel).write_text(text.replace(old, new))
    return tree


def _text_by_resource(printed: Printed) -> PerResource:
    found: PerResource = defaultdict(list)
    for (file, line, col, rule, severity), subject in zip(printed.findings, printed.subjects, strict=True):
        found[(file, subject)].append((line, col, rule, severity))
    return dict(found)


def _ident(entry: dict[str, Any]) -> str:
    namespace = f"{entry['namespace']}/" if entry["namespace"] else ""
    return f"{entry['kind']}/{namespace}{entry['name']}"


def _json_by_resource(body: dict[str, Any]) -> PerResource:
    return {
        (entry["file"], _ident(entry)): [
            (p["line"], p["col"], p["rule"], p["severity"]) for p in entry["problems"]
        ]
        for entry in body["resources"]
        if entry["problems"]
    }


def _validate(run: Run, tree: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(tree)
    result = run("validate", ".", *args)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("which", ["broken", "valid"])
def test_json_lists_the_problems_the_text_prints(
    which: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _broken_tree(tmp_path) if which == "broken" else _valid_tree(tmp_path)
    code, text = _validate(run, tree, monkeypatch)
    printed = parse_text(text)
    json_code, rendered = _validate(run, tree, monkeypatch, "--output", "json")
    body = json.loads(rendered)

    assert json_code == code == (1 if which == "broken" else 0), text
    assert _json_by_resource(body) == _text_by_resource(printed)
    assert body["unreadable"] == []
    assert body["summary"] == printed.summary
    assert len(body["resources"]) == printed.summary["resources"]
    if which == "broken":
        expected = {key: [(*problem, "error") for problem in found] for key, found in BROKEN.items()}
        assert _text_by_resource(printed) == expected, text
        assert {e["status"] for e in body["resources"] if e["problems"]} == {"invalid"}


@pytest.mark.parametrize("which", ["broken", "valid"])
def test_junit_has_a_testcase_per_resource_and_fails_the_invalid_ones(
    which: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _broken_tree(tmp_path) if which == "broken" else _valid_tree(tmp_path)
    _, text = _validate(run, tree, monkeypatch)
    printed = parse_text(text)
    code, rendered = _validate(run, tree, monkeypatch, "--output", "junit")
    suite = ET.fromstring(rendered)

    assert code == (1 if which == "broken" else 0)
    assert suite.tag == "testsuite"
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests", "-1")) == printed.summary["resources"]
    failed = {(c.get("classname"), c.get("name")) for c in cases if c.find("failure") is not None}
    invalid = {
        key for key, found in _text_by_resource(printed).items() if any(f[3] == "error" for f in found)
    }
    assert failed == invalid
    assert int(suite.get("failures", "-1")) == len(failed) == printed.summary["invalid"]
    assert sum(c.find("skipped") is not None for c in cases) == printed.summary["skipped"]
    if which == "broken":
        assert failed == set(BROKEN)
        rules = {f.get("type") for c in cases for f in c.findall("failure")}
        assert rules == {rule for found in BROKEN.values() for _, _, rule in found}


def test_the_repositorys_own_tree_validates_from_the_project(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No PATH: every cluster folder of taugen.yaml's output tree (the committed out/).
    monkeypatch.chdir(REPO)
    result = run("validate")

    assert result.exit_code == 0, result.output
    printed = parse_text(result.output)
    assert [f for f in printed.findings if f[4] == "error"] == []
    assert printed.summary["resources"] > 0 and printed.summary["invalid"] == 0
    assert printed.summary["skipped"] == 0, "every kind of out/ has a schema"


def test_the_repositorys_own_tree_validates_against_the_upstream_crds(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not (SHARED / "crds" / "kueue").is_dir():
        pytest.skip(f"{SHARED / 'crds' / 'kueue'} is absent")
    monkeypatch.chdir(REPO)
    result = run("validate", "--crd", "../shared/crds/kueue")

    assert result.exit_code == 0, result.output
    printed = parse_text(result.output)
    assert [f for f in printed.findings if f[4] == "error"] == []
    assert printed.summary["resources"] > 0 and printed.summary["invalid"] == 0


def test_a_missing_path_exits_2(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(BUILT, tmp_path / "tree")
    monkeypatch.chdir(tmp_path)
    result = run("validate", "tree", "absent.yaml")

    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "absent.yaml" in result.output


def test_an_unknown_kubernetes_version_exits_2_with_a_clear_message(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, output = _validate(run, _valid_tree(tmp_path), monkeypatch, "--kubernetes-version", "9.99")

    assert code == 2, output
    assert "9.99" in output and "1.33" in output, "name the version asked for and the known ones"


def _path_without_kubeconform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    folders = [*extra, empty, Path(sys.executable).parent]
    monkeypatch.setenv("PATH", os.pathsep.join(str(f) for f in folders))


@pytest.mark.parametrize("which", ["broken", "valid"])
def test_kubeconform_not_installed_is_a_note_and_taugen_still_validates(
    which: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _path_without_kubeconform(tmp_path, monkeypatch)
    assert shutil.which("kubeconform") is None
    tree = _broken_tree(tmp_path) if which == "broken" else _valid_tree(tmp_path)
    code, output = _validate(run, tree, monkeypatch, "--kubeconform")

    assert NOT_FOUND_NOTE in output
    assert code == (1 if which == "broken" else 0), output
    printed = parse_text(output)
    assert printed.summary["resources"] == 12
    assert {(f[0], s) for f, s in zip(printed.findings, printed.subjects, strict=True)} == (
        set(BROKEN) if which == "broken" else set()
    )


FAKE_KUBECONFORM = """#!{python}
import json, sys
from pathlib import Path
Path(sys.argv[0]).with_name("args.json").write_text(json.dumps(sys.argv[1:]))
verdicts = [
    {{"filename": sys.argv[-1], "kind": "ConfigMap", "name": "settings", "status": "statusInvalid",
      "msg": "problem validating schema"}},
    {{"filename": sys.argv[-1], "kind": "ConfigMap", "name": "other", "status": "statusValid", "msg": ""}},
]
summary = {{"valid": 1, "invalid": 1, "errors": 0, "skipped": 0}}
print(json.dumps({{"resources": verdicts[:1], "summary": summary}}))
"""

TWO_CONFIGMAPS = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: other
  namespace: kueue-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: kueue-system
"""


def test_kubeconform_verdicts_are_merged(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in kubeconform: it fails ConfigMap settings, whatever it is given.
    fake_bin = tmp_path / "fake-bin"
    fake_bin.mkdir()
    fake = fake_bin / "kubeconform"
    fake.write_text(FAKE_KUBECONFORM.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    _path_without_kubeconform(tmp_path, monkeypatch, fake_bin)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "configmaps.yaml").write_text(TWO_CONFIGMAPS)

    code, output = _validate(run, tree, monkeypatch, "--kubeconform")

    assert code == 1, output
    assert "kubeconform: 2 resources checked, 1 failed, 0 skipped (no schema)" in output
    found: list[Found] = [("configmaps.yaml", 7, 1, "kubeconform", "error")]
    assert parse_text(output).findings == found
    args = json.loads((fake_bin / "args.json").read_text())
    assert "-strict" in args and args[-1] == "configmaps.yaml"


UNUSABLE_CRDS = {
    "yaml-error": "kind: CustomResourceDefinition\nspec: [unclosed\n",
    "no-versions": (
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
        "metadata: {name: widgets.example.com}\n"
        "spec:\n  group: example.com\n  names: {kind: Widget}\n  scope: Namespaced\n"
    ),
}


@pytest.mark.parametrize("name", sorted(UNUSABLE_CRDS))
def test_a_crd_file_that_cannot_be_used_exits_2(
    name: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --crd names input taugen cannot read as CRDs: a usage error (2), not an internal one (3)
    (tmp_path / "crd.yaml").write_text(UNUSABLE_CRDS[name])
    monkeypatch.chdir(tmp_path)
    result = run("validate", BUILT, "--crd", "crd.yaml")

    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, result.output
    assert "crd.yaml" in result.output
