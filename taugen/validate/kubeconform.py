"""--kubeconform: run kubeconform too (when installed) with taugen's schemas, merge its verdicts."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace

from taugen.models.schemas import SCHEMA_DIR
from taugen.validate.engine import Report, Result
from taugen.validate.findings import finding

# Offline: taugen's schemas only, in the CRDs-catalog layout; kinds without one are skipped.
SCHEMA_LOCATION = str(SCHEMA_DIR) + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"


def command(files: list[str]) -> list[str]:
    return [
        "kubeconform",
        "-strict",
        "-summary",
        "-output",
        "json",
        "-ignore-missing-schemas",
        "-schema-location",
        SCHEMA_LOCATION,
        *files,
    ]


def run_kubeconform(report: Report) -> tuple[Report, str]:
    binary = shutil.which("kubeconform")
    if binary is None:
        return report, "kubeconform: not found on PATH; skipped"
    files = sorted({str(r.resource.file) for r in report.results})
    done = subprocess.run(command(files), capture_output=True, text=True, check=False, timeout=600)
    try:
        verdicts = json.loads(done.stdout or "{}").get("resources") or []
    except json.JSONDecodeError:
        return report, f"kubeconform: unreadable output (exit {done.returncode}); skipped"
    failed = {
        (v.get("filename"), v.get("kind"), v.get("name")): v.get("msg", "")
        for v in verdicts
        if v.get("status") in ("statusInvalid", "statusError")
    }
    results = [_merge(r, failed) for r in report.results]
    return replace(
        report, results=results
    ), f"kubeconform: {len(verdicts)} resources checked, {len(failed)} failed"


def _merge(result: Result, failed: dict[tuple[str | None, str | None, str | None], str]) -> Result:
    r = result.resource
    message = failed.get((str(r.file), r.kind, r.name))
    if message is None:
        return result
    extra = finding(r, [], "kubeconform", f"kubeconform: {message}", "see kubeconform's verdict")
    return replace(result, status="invalid", findings=sorted([*result.findings, extra]))
