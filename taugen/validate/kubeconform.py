"""--kubeconform: run kubeconform too (when installed) on schemas derived from the upstream CRDs
(the bundled ones and --crd files) and Kubernetes' own (kubeschemas.py), and merge its verdicts."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from taugen.validate.engine import Report, Result
from taugen.validate.findings import finding
from taugen.validate.kubeschemas import write_schemas


def command(files: list[str], locations: list[str]) -> list[str]:
    """Offline: only the schemas written for this run; a kind without one is skipped (and counted)."""
    flags = [flag for location in locations for flag in ("-schema-location", location)]
    return [
        "kubeconform",
        "-strict",
        "-summary",
        "-output",
        "json",
        "-ignore-missing-schemas",
        *flags,
        *files,
    ]


def run_kubeconform(report: Report, crds: tuple[Path, ...], kubernetes_version: str) -> tuple[Report, str]:
    if shutil.which("kubeconform") is None:
        return report, "kubeconform: not found on PATH; skipped"
    files = sorted({str(r.resource.file) for r in report.results})
    kinds = {
        (str(r.resource.obj.get("apiVersion")), r.resource.kind) for r in report.results if r.resource.kind
    }
    with tempfile.TemporaryDirectory(prefix="taugen-kubeconform-") as scratch:
        locations = write_schemas(Path(scratch), kinds, crds, kubernetes_version)
        done = subprocess.run(
            command(files, locations), capture_output=True, text=True, check=False, timeout=600
        )
    try:
        out = json.loads(done.stdout or "{}")
        verdicts: list[dict[str, Any]] = out.get("resources") or []  # the failed ones only
        summary: dict[str, int] = out.get("summary") or {}
    except (json.JSONDecodeError, AttributeError):
        return report, f"kubeconform: unreadable output (exit {done.returncode}); skipped"
    failed = {
        (v.get("filename"), v.get("kind"), v.get("name")): v.get("msg", "")
        for v in verdicts
        if v.get("status") in ("statusInvalid", "statusError")
    }
    checked = sum(summary.get(k, 0) for k in ("valid", "invalid", "errors"))
    results = [_merge(r, failed) for r in report.results]
    skipped = summary.get("skipped", 0)
    note = f"kubeconform: {checked} resources checked, {len(failed)} failed, {skipped} skipped (no schema)"
    return replace(report, results=results), note


def _merge(result: Result, failed: dict[tuple[str | None, str | None, str | None], str]) -> Result:
    r = result.resource
    message = failed.get((str(r.file), r.kind, r.name))
    if message is None:
        return result
    extra = finding(r, [], "kubeconform", f"kubeconform: {message}", "see kubeconform's verdict")
    return replace(result, status="invalid", findings=sorted([*result.findings, extra]))
