"""The workspace's real kubeconform (../shared/tools/kubeconform/run) on compiled trees.

The kit's core schemas are six kinds (Node, PriorityClass, ConfigMap, Namespace, Job, Pod); the
ValidatingAdmissionPolicy and its binding (G3) are given to it here, from the same source the kit
took its own from (kubernetes-validate's v1.34.0-local-strict schemas), every `$ref` inlined so
each file stands alone, in the kit's core layout. So are Argo CD's Application and
ApplicationSet (G6's out/_argocd/), from tests/data/gitops-crds/; the kit skips every kind
named Kustomization, Flux's too (tests/unit/test_gitops_crds.py checks those).
"""

from __future__ import annotations

import json
import subprocess
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from taugen.validate.patterns import END
from tests.conftest import SHARED
from tests.support.crd import load_crds, object_schema

KIT = SHARED / "tools" / "kubeconform" / "run"
VERSION = "v1.34.0-local-strict"
EXTRA = (
    "validatingadmissionpolicy-admissionregistration-v1",
    "validatingadmissionpolicybinding-admissionregistration-v1",
)
_REFS = ("/api/_definitions.json#/$defs/", "#/$defs/")  # from a kind's file, inside _definitions
GITOPS_CRDS = Path(__file__).resolve().parents[1] / "data" / "gitops-crds"


def kubeconform(folders: list[Path], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The kit on `folders`, with the extra core schemas; skipped without ../shared."""
    if not KIT.is_file():
        pytest.skip(f"the kubeconform kit is not at {KIT} (only the full workspace has ../shared)")
    location = write_extra_schemas(tmp_path / "extra-schemas")
    command = [str(KIT), "-schema-location", location, *map(str, folders)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


def write_extra_schemas(schemas: Path) -> str:
    """The two policy kinds' and Argo CD's two kinds' schemas in `schemas`; their kubeconform
    -schema-location."""
    schemas.mkdir(parents=True, exist_ok=True)
    source = files("kubernetes_validate") / "kubernetes-json-schema" / VERSION
    definitions = json.loads((source / "_definitions.json").read_text())["$defs"]
    for name in EXTRA:
        schema = _inlined(json.loads((source / f"{name}.json").read_text()), definitions)
        for key in ("$id", "$schema"):  # as the kit's own: no identifier to resolve against
            schema.pop(key)
        (schemas / f"{name}.json").write_text(json.dumps(schema))
    for (_, kind), crd in load_crds(GITOPS_CRDS).items():
        if crd.group == "argoproj.io":  # kubeconform's KindSuffix: -<group's first label>-<version>
            name = f"{kind.lower()}-{crd.group.split('.')[0]}-{crd.version}"
            (schemas / f"{name}.json").write_text(json.dumps(_go_patterns(object_schema(crd))))
    return f"{schemas}/{{{{ .ResourceKind }}}}{{{{ .KindSuffix }}}}.json"


def _inlined(node: Any, definitions: dict[str, Any], depth: int = 0) -> Any:
    assert depth < 40, "a recursive definition: the two policy kinds have none"
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REFS):
            target = _inlined(definitions[ref.rpartition("/")[2]], definitions, depth + 1)
            return {**target, **{k: _inlined(v, definitions, depth) for k, v in node.items() if k != "$ref"}}
        return {k: _inlined(v, definitions, depth) for k, v in node.items()}
    if isinstance(node, list):
        return [_inlined(v, definitions, depth) for v in node]
    return node


def _go_patterns(node: Any) -> Any:
    """The schema's patterns as RE2 reads them again: object_schema anchors `$` for Python."""
    if isinstance(node, dict):
        return {
            k: v.replace(END, "$") if k == "pattern" and isinstance(v, str) else _go_patterns(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_go_patterns(v) for v in node]
    return node


if __name__ == "__main__":  # .ci/run: python -m tests.support.kubeconform DIR -> the schema location
    import sys

    print(write_extra_schemas(Path(sys.argv[1])))
