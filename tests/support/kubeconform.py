"""The workspace's real kubeconform (../shared/tools/kubeconform/run) on compiled trees.

The kit's core schemas are six kinds (Node, PriorityClass, ConfigMap, Namespace, Job, Pod); the
ValidatingAdmissionPolicy and its binding (G3) are given to it here, written as
`taugen validate --kubeconform` writes them (taugen/validate/kubeschemas.py: kubernetes-validate's
v1.34 strict schemas, every `$ref` inlined), in the kit's core layout. So are Argo CD's Application
and ApplicationSet (G6's out/_argocd/), converted from the upstream CRDs in ../shared/crds/argocd
where they are (issue 30: nothing upstream is committed); the kit skips every kind named
Kustomization, Flux's too (tests/unit/test_gitops_crds.py checks those).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from taugen.validate.crd import load_crds, strict_schema
from taugen.validate.kubeschemas import write_core_schemas
from tests.conftest import SHARED

KIT = SHARED / "tools" / "kubeconform" / "run"
BINARY = KIT.with_name("kubeconform")  # the bare binary: only the schema locations it is given
KIT_VERSION = "1.34"
EXTRA = (
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"),
)
ARGOCD_CRDS = SHARED / "crds" / "argocd"


def kubeconform(folders: list[Path], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The kit on `folders`, with the extra core schemas; skipped without ../shared."""
    require_kit()
    location = write_extra_schemas(tmp_path / "extra-schemas")
    command = [str(KIT), "-schema-location", location, *map(str, folders)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


def require_kit() -> None:
    if not KIT.is_file() or not BINARY.is_file():
        pytest.skip(f"the kubeconform kit is not at {KIT} (only the full workspace has ../shared)")


def write_extra_schemas(schemas: Path) -> str:
    """The two policy kinds' and Argo CD's two kinds' schemas in `schemas`; their kubeconform
    -schema-location. Argo CD's are converted as `validate --kubeconform` converts a CRD
    (strict, patterns left RE2 for Go)."""
    location = write_core_schemas(schemas, EXTRA, KIT_VERSION)
    for (api_version, kind), crd in sorted(load_crds(ARGOCD_CRDS).items()):
        group, _, version = api_version.rpartition(
            "/"
        )  # kubeconform's KindSuffix: -<group's first label>-<version>
        name = f"{kind.lower()}-{group.split('.')[0]}-{version}"
        (schemas / f"{name}.json").write_text(json.dumps(strict_schema(crd.openapi)))
    return location


if __name__ == "__main__":  # .ci/run: python -m tests.support.kubeconform DIR -> the schema location
    import sys

    print(write_extra_schemas(Path(sys.argv[1])))
