"""The `taugen validate` corpus (STYLE.md "A case corpus"): one generated test per case folder.

Each `tests/cases/validate/<case>/` holds manifests (YAML, JSON, maybe a kustomization) and an
`expected.yaml`: `description`, optional `paths` (what to validate; default `.`), optional
`args` (`{shared}` stands for ../shared; a case needing it is skipped when ../shared/crds is
absent), `exit`, `problems`: exactly the findings, errors and warnings, as
(file, line, col, rule, severity), each with an optional `message` the printed message must
contain, optionally `summary`: the counts of the summary line, and optionally `notes`: the
CEL rules not checked (`note: not checked on ...`), one text each note must contain, exactly.
The case runs in a copy of its folder, so the printed paths are relative to the case.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import SHARED, Run

CASES = Path(__file__).resolve().parent.parent / "cases" / "validate"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())
MIN_CASES = 20
SHARED_MARK = "{shared}"

SEMANTIC_RULES = frozenset(
    {
        "localqueue-clusterqueue",
        "clusterqueue-flavor",
        "flavor-topology",
        "covered-resources",
        "one-group",
        "limits",
        "hostname-last",
        "canonical-quantity",
        "node-levels",
        "flavor-nodes",
        "priority-pairs",
        "namespace-selector",
        # what the API server, Argo CD or kustomize refuse (issue 20)
        "cel",
        "size",
        "duplicate",
        "name",
        # the upstream CRDs' CEL rules as taugen's own checks, when no CRD is given (issue 30)
        "tas-node-labels",
        "taint-effect",
        "toleration-key",
        "toleration-operator",
        "toleration-value",
        "toleration-seconds",
        "toleration-effect",
        "borrowing-cohort",
        "fungibility-preference",
        "preemption-borrow",
        "unique-levels",
        "cluster-source",
        "unique-clusters",
    }
)
RULES = SEMANTIC_RULES | {"schema", "yaml", "kustomization", "kubeconform"}

# `path:line:col: severity: Kind/name: message (rule)`, then `  hint: ...` (report.text)
FINDING = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning): "
    r"(?P<subject>\S+): (?P<message>.+) \((?P<rule>[a-z-]+)\)$"
)
USAGE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: .+ \[(?P<rule>[a-z-]+)\]$")
ANY_FINDING = re.compile(r"(^|: )(error|warning): ")
HINT = "  hint: "
NOTE = re.compile(r"^note: not checked on \d+ objects?: .+ \(cel\)$")
# issue 30: one line naming the groups whose CRD was not given, and how to give them
NOT_EVALUATED = re.compile(
    r"^note: upstream CRD rules not evaluated on \d+ objects? of (?P<groups>.+): no CRD given, "
    r"taugen's own checks ran; give them with --crd FILE\|DIR\|- or `crds:` in taugen\.yaml "
    r"\(docs/validate\.md\)$"
)
SUMMARY = re.compile(
    r"^(?P<resources>\d+) resources in (?P<files>\d+) files — "
    r"valid (?P<valid>\d+), invalid (?P<invalid>\d+), skipped (?P<skipped>\d+)$"
)

Found = tuple[str, int, int, str, str]  # file, line, col, rule, severity


@dataclass(frozen=True)
class Case:
    description: str
    paths: tuple[str, ...]
    args: tuple[str, ...]
    exit: int
    problems: list[Found]  # sorted
    summary: dict[str, int] | None
    messages: dict[Found, str]  # what the printed message of a finding must contain
    notes: list[str] | None


def load_case(folder: Path) -> Case:
    data = yaml.safe_load((folder / "expected.yaml").read_text())
    assert isinstance(data, dict), f"{folder.name}: expected.yaml is not a mapping"
    assert set(data) <= {"description", "paths", "args", "exit", "problems", "summary", "notes"}, folder.name
    assert isinstance(data.get("description"), str) and data["description"], f"{folder.name}: no description"
    assert data.get("exit") in (0, 1, 2), f"{folder.name}: exit must be 0, 1 or 2"
    paths, args = data.get("paths", ["."]), data.get("args", [])
    for value in (paths, args):
        assert isinstance(value, list) and all(isinstance(a, str) for a in value), f"{folder.name}: {value}"
    entries = data.get("problems") or []
    problems = sorted(_expected_problem(folder, p) for p in entries)
    messages = {_expected_problem(folder, p): p["message"] for p in entries if "message" in p}
    errors = any(p[4] == "error" for p in problems)
    assert data["exit"] != 0 or not errors, f"{folder.name}: exit 0 with errors"
    assert data["exit"] != 1 or errors, f"{folder.name}: exit 1 without an error"
    summary = data.get("summary")
    assert summary is None or set(summary) == set(SUMMARY.groupindex), f"{folder.name}: bad summary"
    notes = data.get("notes")
    assert notes is None or (isinstance(notes, list) and all(isinstance(n, str) for n in notes)), folder.name
    return Case(
        data["description"], tuple(paths), tuple(args), data["exit"], problems, summary, messages, notes
    )


def _expected_problem(folder: Path, entry: Any) -> Found:
    required = {"file", "line", "col", "rule", "severity"}
    assert isinstance(entry, dict) and required <= set(entry) <= {*required, "message"}, entry
    assert (folder / entry["file"]).is_file(), f"{folder.name}: {entry['file']} is not in the case"
    assert entry["line"] >= 1 and entry["col"] >= 1, entry
    assert entry["rule"] in RULES, f"{folder.name}: unknown rule {entry['rule']}"
    assert entry["severity"] in ("error", "warning"), entry
    return (str(entry["file"]), int(entry["line"]), int(entry["col"]), str(entry["rule"]), entry["severity"])


def shared_args(args: tuple[str, ...]) -> tuple[str, ...]:
    """`{shared}/crds/kueue` -> the real path; skips the test when ../shared/crds is absent."""
    if any(SHARED_MARK in a for a in args) and not (SHARED / "crds").is_dir():
        pytest.skip(f"{SHARED / 'crds'} is absent")
    return tuple(a.replace(SHARED_MARK, str(SHARED)) for a in args)


@dataclass(frozen=True)
class Printed:
    findings: list[Found]  # in printed order
    subjects: list[str]  # Kind/[namespace/]name of each finding, in printed order
    summary: dict[str, int]
    messages: list[str] = field(default_factory=list)  # of each finding, in printed order
    notes: list[str] = field(default_factory=list)  # CEL rules not checked
    without_crd: str | None = None  # the groups whose upstream rules did not run (issue 30)


def parse_text(output: str) -> Printed:
    """The text report; fails on a finding without a position, a rule or a hint, or no summary."""
    lines = output.splitlines()
    findings: list[Found] = []
    subjects: list[str] = []
    messages: list[str] = []
    notes = [line for line in lines if line.startswith("note: ") and not NOT_EVALUATED.match(line)]
    assert all(NOTE.match(note) for note in notes), notes
    without_crd = [m["groups"] for m in map(NOT_EVALUATED.match, lines) if m]
    assert len(without_crd) <= 1, output
    for index, line in enumerate(lines):
        if line.startswith(HINT) or not ANY_FINDING.search(line) or line.startswith("note: "):
            continue
        match = FINDING.match(line)
        assert match, f"a finding without file:line:col: severity: subject: message (rule): {line!r}"
        following = lines[index + 1] if index + 1 < len(lines) else ""
        assert following.startswith(HINT) and following[len(HINT) :].strip(), f"no hint after: {line!r}"
        findings.append(
            (match["file"], int(match["line"]), int(match["col"]), match["rule"], match["severity"])
        )
        subjects.append(match["subject"])
        messages.append(match["message"])
    summaries = [m for m in map(SUMMARY.match, lines) if m]
    assert len(summaries) == 1, f"not one summary line:\n{output}"
    counts = {k: int(v) for k, v in summaries[0].groupdict().items()}
    return Printed(findings, subjects, counts, messages, notes, without_crd[0] if without_crd else None)


def parse_usage(output: str) -> list[Found]:
    """Exit 2 prints input problems as `path:line:col: error: message [rule]` (Problem.render)."""
    found = [USAGE.match(line) for line in output.splitlines()]
    return [(m["file"], int(m["line"]), int(m["col"]), m["rule"], "error") for m in found if m]


def test_the_corpus_is_not_empty() -> None:
    # A glob that matches nothing would make every generated test vanish silently (STYLE.md).
    assert len(NAMES) >= MIN_CASES, NAMES
    assert all((CASES / name / "expected.yaml").is_file() for name in NAMES)


def test_every_rule_fires_somewhere_in_the_corpus() -> None:
    # A rule no case makes fire could be dead code; a rule id the corpus invents is a typo.
    fired = {problem[3] for name in NAMES for problem in load_case(CASES / name).problems}
    assert fired >= SEMANTIC_RULES | {"schema", "yaml", "kustomization"}, sorted(fired)


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_validate_case(name: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    case = load_case(CASES / name)
    args = shared_args(case.args)
    shutil.copytree(CASES / name, tmp_path / name, ignore=shutil.ignore_patterns("expected.yaml"))
    monkeypatch.chdir(tmp_path / name)  # the report prints paths relative to the working directory

    result = run("validate", *case.paths, *args)

    assert "Traceback" not in result.output, result.output
    assert result.exit_code == case.exit, f"{case.description}\n{result.output}"
    if case.exit == 2:
        assert "error: " in result.output, "exit 2 without saying why"
        found = parse_usage(result.output)
    else:
        printed = parse_text(result.output)
        found = printed.findings
        assert printed.summary["resources"] > 0, f"nothing was validated\n{result.output}"
        assert case.summary in (None, printed.summary), result.output
        for found_at, wanted in case.messages.items():
            said = [m for f, m in zip(printed.findings, printed.messages, strict=True) if f == found_at]
            assert any(wanted in m for m in said), f"{found_at}: not {wanted!r} but {said}"
        if case.notes is not None:
            assert len(printed.notes) == len(case.notes), result.output
            assert all(any(n in note for note in printed.notes) for n in case.notes), result.output
    assert sorted(found) == case.problems, f"{case.description}\n{result.output}"
    for file in {f[0] for f in found}:  # findings of one file come in the order of the file
        positions = [(f[1], f[2]) for f in found if f[0] == file]
        assert positions == sorted(positions), f"{file}: not in order\n{result.output}"
