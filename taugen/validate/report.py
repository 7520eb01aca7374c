"""Render a validation report as text (kubeconform-like), JSON or JUnit XML."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from taugen.core.errors import bounded, escaped
from taugen.validate.cel import Unchecked
from taugen.validate.engine import Report, Result
from taugen.validate.findings import Finding


def _shown(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def render(item: Finding, base: Path) -> list[str]:
    """`path:line:col: error: Kind/name: message (rule)`, then the hint. The path and the name
    come from the tree: escaped and cut (issue 17 item 9), never a line of their own."""
    p = item.problem
    shown = escaped(_shown(p.path, base))
    where = f"{shown}:{p.line}:{p.col}" if p.line else shown
    head = f"{where}: {p.severity}: {bounded(item.subject)}: {p.message} ({p.rule})"
    return [head, f"  hint: {p.hint}"] if p.hint else [head]


def text(report: Report, base: Path) -> str:
    lines = [line for item in report.findings for line in render(item, base)]
    lines += [not_checked(u) for u in report.unchecked]
    if report.without_crd:
        lines.append(not_evaluated(report.without_crd))
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def summary(report: Report) -> str:
    return (
        f"{len(report.results)} resources in {report.files} files — valid {report.count('valid')}, "
        f"invalid {report.count('invalid')}, skipped {report.count('skipped')}"
    )


def not_checked(item: Unchecked) -> str:
    """A CEL rule that was not evaluated: never passed silently (cel.py)."""
    objects = f"{item.objects} object{'s' if item.objects != 1 else ''}"
    where = f"{item.kind} ({item.api_version}) {item.path}"
    return f"note: not checked on {objects}: {where}: {bounded(item.message)} — {item.why} (cel)"


CRD_HOW = "give them with --crd FILE|DIR|- or `crds:` in taugen.yaml (docs/validate.md)"


def not_evaluated(groups: dict[str, int]) -> str:
    """One line: which upstream rules did not run, and how to give their CRDs (issue 30)."""
    objects = sum(groups.values())
    named = ", ".join(f"{group} ({count})" for group, count in groups.items())
    return (
        f"note: upstream CRD rules not evaluated on {objects} object{'s' if objects != 1 else ''} "
        f"of {named}: no CRD given, taugen's own checks ran; {CRD_HOW}"
    )


def _entry(result: Result, base: Path) -> dict[str, Any]:
    r = result.resource
    return {
        "file": _shown(r.file, base),
        "kind": r.kind,
        "name": r.name,
        "namespace": r.namespace or None,
        "status": result.status,
        "schema": result.schema_source,
        "problems": [_problem(f) for f in result.findings],
    }


def _problem(item: Finding) -> dict[str, Any]:
    p = item.problem
    return {
        "line": p.line,
        "col": p.col,
        "severity": p.severity,
        "rule": p.rule,
        "message": p.message,
        "hint": p.hint,
    }


def as_json(report: Report, base: Path) -> str:
    body = {
        "resources": [_entry(r, base) for r in report.results],
        "unreadable": [{"file": _shown(f.problem.path, base), **_problem(f)} for f in report.unreadable],
        "project": [{"file": _shown(f.problem.path, base), **_problem(f)} for f in report.project],
        "not_checked": [dataclasses.asdict(u) for u in report.unchecked],
        "not_evaluated": {"groups": report.without_crd, "hint": CRD_HOW} if report.without_crd else None,
        "summary": {
            "resources": len(report.results),
            "files": report.files,
            "valid": report.count("valid"),
            "invalid": report.count("invalid"),
            "skipped": report.count("skipped"),
        },
    }
    return json.dumps(body, indent=2, sort_keys=True) + "\n"


def junit(report: Report, base: Path) -> str:
    """One test case per resource (and per unreadable file), for CI systems."""
    suite = ET.Element(
        "testsuite",
        name="taugen validate",
        tests=str(len(report.results) + len(report.unreadable)),
        failures=str(report.count("invalid") + len(report.unreadable)),
        skipped=str(report.count("skipped")),
    )
    for result in report.results:
        case = ET.SubElement(
            suite, "testcase", classname=_shown(result.resource.file, base), name=result.resource.ident
        )
        errors = [f for f in result.findings if f.is_error]
        if result.status == "skipped":
            ET.SubElement(case, "skipped", message="no schema for this kind")
        for item in errors:
            p = item.problem
            failure = ET.SubElement(case, "failure", message=p.message, type=p.rule)
            failure.text = f"{_shown(p.path, base)}:{p.line}:{p.col}: {p.message} ({p.rule})"
    for item in report.unreadable:
        case = ET.SubElement(suite, "testcase", classname=_shown(item.problem.path, base), name="file")
        ET.SubElement(case, "failure", message=item.problem.message, type=item.problem.rule)
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


RENDERERS = {"text": text, "json": as_json, "junit": junit}
