"""G6 objects against the upstream CRDs (../shared/crds/argocd and flux, read there; skipped without): the
committed example's out/_argocd and out/_flux, a Flux hub's, `taugen init`'s entry points, and
every Application the ApplicationSets expand to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.init import init
from tests.support.crd import CrdVersion, object_schema, upstream_crds, validation_errors

REPO = Path(__file__).resolve().parents[2]


def _crds() -> dict[tuple[str, str], CrdVersion]:
    return {**upstream_crds("argocd"), **upstream_crds("flux")}


def _errors(obj: dict[str, Any]) -> list[str]:
    crd = _crds()[(obj["apiVersion"], obj["kind"])]
    return validation_errors(object_schema(crd), obj)


def _objects(folder: Path) -> list[dict[str, Any]]:
    return [
        doc
        for path in sorted(folder.rglob("*.yaml"))
        if path.name != "kustomization.yaml"
        for doc in yaml.safe_load_all(path.read_text())
        if doc
    ]


def test_the_upstream_crds_hold_the_three_kinds() -> None:
    assert {
        ("argoproj.io/v1alpha1", "Application"),
        ("argoproj.io/v1alpha1", "ApplicationSet"),
        ("kustomize.toolkit.fluxcd.io/v1", "Kustomization"),
    } <= set(_crds())


EXAMPLE = _objects(REPO / "out" / "_argocd") + _objects(REPO / "out" / "_flux")


@pytest.mark.parametrize("obj", EXAMPLE, ids=lambda o: f"{o['kind']}/{o['metadata']['name']}")
def test_the_examples_generated_objects_are_valid(obj: dict[str, Any]) -> None:
    assert _errors(obj) == []


def test_the_schema_catches_a_mistake() -> None:
    """The check can fail: a misspelt field and a wrong type are both errors."""
    (core, *_) = [o for o in EXAMPLE if o["kind"] == "Kustomization"]
    bad = json.loads(json.dumps(core))
    bad["spec"]["prunne"] = True
    bad["spec"]["wait"] = "yes"
    assert _errors(bad) == [
        "spec.wait: 'yes' is not of type 'boolean'",
        "spec: Additional properties are not allowed ('prunne' was unexpected)",
    ]


def _expanded(appset: dict[str, Any]) -> list[dict[str, Any]]:
    """As the controller makes Applications of a list generator (goTemplate, missingkey=error)."""
    apps = []
    for element in appset["spec"]["generators"][0]["list"]["elements"]:
        text = json.dumps(appset["spec"]["template"])
        for key, value in element.items():
            text = text.replace("{{." + key + "}}", value)
        assert "{{" not in text, text
        template = json.loads(text)
        meta = template["metadata"] | {"namespace": appset["metadata"]["namespace"]}
        apps.append(
            {"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", **template, "metadata": meta}
        )
    return apps


APPS = [app for o in EXAMPLE if o["kind"] == "ApplicationSet" for app in _expanded(o)]


def test_the_applicationsets_expand_to_valid_applications() -> None:
    assert len(APPS) == 6 + 13  # six cores, thirteen shards in the example
    assert [(a["metadata"]["name"], _errors(a)) for a in APPS if _errors(a)] == []
    roots = [k.parent.relative_to(REPO) for k in sorted((REPO / "out").glob("**/kustomization.yaml"))]
    # every cluster core and shard of the committed tree has its Application; nothing else does
    assert sorted(a["spec"]["source"]["path"] for a in APPS) == sorted(
        r.as_posix() for r in roots if not r.parts[1].startswith("_")
    )


def test_init_entry_points_are_valid(tmp_path: Path) -> None:
    init(tmp_path, "eastus-prod")
    for rel in ("argocd/taugen.yaml", "flux/eastus-prod.yaml"):
        (doc,) = [d for d in yaml.safe_load_all((tmp_path / rel).read_text()) if d]
        assert _errors(doc) == [], rel


def test_hub_kustomizations_with_every_option_are_valid() -> None:
    from taugen.compile.gitops.flux import kustomizations
    from taugen.compile.gitops.layout import deployed
    from taugen.models.gitops import Dependency, Flux, SourceRef

    flux = Flux(
        hub=True,
        sourceRef=SourceRef(kind="OCIRepository", name="queues", namespace="flux-system"),
        dependsOn=[Dependency(name="kueue", namespace="kueue-system")],
    )
    (cluster,) = deployed("clusters/out", [("c1", True, ["a100-80gb", "_no-gpu-class"])])
    objects = [m.obj for m in kustomizations(flux, cluster)]
    assert len(objects) == 3 and [_errors(o) for o in objects] == [[], [], []]


def test_kubeconform_checks_the_applicationsets_strictly(tmp_path: Path) -> None:
    """The workspace's kubeconform with the Argo CD schemas tests.support.kubeconform adds (the
    kit skips every kind named Kustomization: Flux's are checked above)."""
    from tests.support.kubeconform import kubeconform

    done = kubeconform([REPO / "out" / "_argocd"], tmp_path)
    assert done.returncode == 0 and "Valid: 2, Invalid: 0, Errors: 0" in done.stdout, done.stdout
    bad = tmp_path / "bad"
    bad.mkdir()
    text = (REPO / "out" / "_argocd" / "applicationset.yaml").read_text()
    (bad / "applicationset.yaml").write_text(text.replace("  goTemplate: true\n", "  goTemplat: true\n"))
    done = kubeconform([bad], tmp_path)
    assert done.returncode == 1 and "goTemplat" in done.stdout, done.stdout
