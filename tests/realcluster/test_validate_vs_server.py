"""Issue 31 item 4: `taugen validate`'s verdict beside the real API server's on a corpus of the
kinds taugen writes (tests/realcluster/corpus.py): each object is created with dryRun=All on the
real kube-apiserver (v1.34.2, the upstream CRDs installed; minimalkueue runs no webhook), and
validated by taugen with no CRD given (its own schemas and checks). Both must refuse or both
accept; every known difference is listed here and in docs/validate.md with its reason, and a new
one, or one that went away, fails the test."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from taugen.api.checks import MODELS, object_checks
from taugen.validate.engine import validate
from taugen.validate.resources import load_resources
from taugen.validate.schemas import SchemaStore
from tests.conftest import shared_crds
from tests.realcluster.conftest import record
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.corpus import NAMESPACE, Case, corpus, write
from tests.realcluster.kube import Kube, refusal
from tests.support.crd import CrdVersion, load_crds

pytestmark = pytest.mark.realcluster
# What taugen refuses as the API server would (the rest of validate is Kueue's semantics, Argo
# CD's or kustomize's: a tree the API server takes and that still does not work).
OWN = frozenset(check.rule for key in MODELS for check in object_checks(key))
API_RULES = frozenset({"schema", "name", "size", "cel", "covered-resources", "hostname-last"}) | OWN
MIN_CASES = 200
# case name -> why the verdicts differ (docs/validate.md, "taugen validate and the API server")
KNOWN: dict[str, str] = {
    # Kueue's Go field is an int32 and its CRD says `format: int32`, which the API server does not
    # enforce: it stores the value, and Kueue's client then cannot decode the object. taugen
    # refuses it (stricter by design).
    "WorkloadPriorityClass value = 2147483648": "int32 range",
}


@dataclass(frozen=True)
class Verdicts:
    case: Case
    server: str | None  # None: accepted; else the refusal
    taugen: list[str]  # the API-server findings taugen gave: rule and message

    @property
    def agree(self) -> bool:
        return (self.server is None) == (not self.taugen)


def _crds() -> dict[tuple[str, str], CrdVersion]:
    found: dict[tuple[str, str], CrdVersion] = {}
    for project in ("kueue", "kai", "nfd"):
        found.update(load_crds(shared_crds(project)))
    return found


def _server(kube: Kube, case: Case) -> str | None:
    """A create with dryRun=All and fieldValidation=Strict, as `kubectl apply` sends it (an unknown
    field is refused, not pruned in silence: taugen refuses it for the same reason)."""
    meta = case.obj["metadata"]
    path = kube.resource(case.obj["apiVersion"], case.obj["kind"]).path(meta.get("namespace"))
    answer = kube.http.post(path, json=case.obj, params={"dryRun": "All", "fieldValidation": "Strict"})
    return None if answer.is_success else refusal(answer)


def _taugen(path: Path) -> list[str]:
    loaded = load_resources([path])
    report = validate(loaded.resources, SchemaStore(), 1)
    return [
        f"{f.problem.rule}: {f.problem.message}"
        for f in report.findings
        if f.is_error and f.problem.rule in API_RULES
    ]


def test_validate_and_the_api_server_agree(
    control_plane: ControlPlane, tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    kube = control_plane.kube
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}}
    if kube.get(namespace) is None:
        Kube.expect(kube.create(namespace))
    cases = corpus(_crds())
    assert len(cases) >= MIN_CASES and len({c.obj["metadata"]["name"] for c in cases}) == len(cases)
    paths = write(cases, tmp_path / "corpus")
    verdicts = [Verdicts(c, _server(kube, c), _taugen(p)) for c, p in zip(cases, paths, strict=True)]

    refused = sum(v.server is not None for v in verdicts)
    agree = sum(v.agree for v in verdicts)
    record(
        pytestconfig,
        f"validate vs the API server: {agree} of {len(verdicts)} objects agree "
        f"({refused} refused by the server, {len(verdicts) - refused} accepted); "
        f"{len(verdicts) - agree} differ, each known",
    )
    differ = {
        v.case.name: f"server: {v.server or 'accepts'}; taugen: {v.taugen or 'accepts'}"
        for v in verdicts
        if not v.agree
    }
    assert sorted(differ) == sorted(KNOWN), "\n".join(f"{k}: {w}" for k, w in sorted(differ.items()))
    assert refused >= 100 and len(verdicts) - refused >= 30  # the corpus holds both, in number
