"""Issue 30: upstream CRDs come from where the user has them: `crds:` in taugen.yaml (files,
folders, globs, a release manifest of which only the CRDs are read), `--crd FILE|DIR|-` on build,
validate and diff, and `kubectl get crd -o yaml | taugen validate --crd -` (a List). A Kueue CRD
of another release is a warning naming both releases."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from taugen.cli import main
from tests.cli.test_validate_cases import parse_text, parse_usage
from tests.conftest import Run, shared_crds
from tests.support.unit import write_project

FLAVOR_CRD = "kueue.x-k8s.io_resourceflavors.yaml"
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "kueue-controller-manager", "namespace": "kueue-system"},
    "spec": {
        "template": {
            "spec": {"containers": [{"name": "manager", "image": "registry.k8s.io/kueue/kueue:RELEASE"}]}
        }
    },
}


def _crds(folder: Path) -> list[dict[str, Any]]:
    return [d for p in sorted(folder.glob("*.yaml")) for d in yaml.safe_load_all(p.read_text()) if d]


def _release_manifest(path: Path, release: str) -> Path:
    """A Kueue release manifest as `kubectl apply -f` takes it: a Namespace, the CRDs, the Deployment."""
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "kueue-system"}}
    deployment = yaml.safe_load(yaml.safe_dump(DEPLOYMENT).replace("RELEASE", release))
    path.write_text(yaml.safe_dump_all([namespace, *_crds(shared_crds("kueue")), deployment]))
    return path


def _project(tmp_path: Path, crds: list[str] | None) -> Path:
    project = write_project(tmp_path)
    doc = yaml.safe_load(project.read_text())
    if crds is not None:
        doc["crds"] = crds
    project.write_text(yaml.safe_dump(doc, sort_keys=False))
    return project


def _broken_flavor(tmp_path: Path) -> Path:
    """The built tree with a toleration Kueue's CRD refuses (operator Exists with a value)."""
    tree = tmp_path / "broken"
    shutil.copytree(tmp_path / "out" / "c1", tree)
    path = tree / "resourceflavors.yaml"
    docs = list(yaml.safe_load_all(path.read_text()))
    docs[0]["spec"]["tolerations"] = [{"key": "sku", "operator": "Exists", "value": "gpu"}]
    path.write_text(yaml.safe_dump_all(docs))
    return tree


def test_crds_in_the_project_validate_build_and_validate(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _release_manifest(tmp_path / "kueue-manifests.yaml", "v0.19.2")
    shutil.copytree(shared_crds("kai"), tmp_path / "vendor" / "kai")
    project = _project(tmp_path, ["kueue-manifests.yaml", "vendor/*/*.yaml"])
    monkeypatch.chdir(tmp_path)

    built = run("build", "-c", project)
    assert built.exit_code == 0 and "[crd]" not in built.output, built.output
    result = run("validate", "-c", project)
    assert result.exit_code == 0, result.output
    assert parse_text(result.output).without_crd == "nfd.k8s-sigs.io (1)"  # Kueue's were given

    refused = run("validate", "-c", project, _broken_flavor(tmp_path))
    printed = parse_text(refused.output)
    assert refused.exit_code == 1
    assert [(f[3], m) for f, m in zip(printed.findings, printed.messages, strict=True)] == [
        ("cel", "spec.tolerations: a value must be empty when 'operator' is 'Exists'")
    ]


def test_a_kueue_crd_of_another_release_is_a_warning_naming_both(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = _release_manifest(tmp_path / "kueue-manifests.yaml", "v0.18.1")
    project = _project(tmp_path, ["kueue-manifests.yaml"])
    monkeypatch.chdir(tmp_path)

    built = run("build", "-c", project)
    assert built.exit_code == 0, built.output
    (line,) = [line for line in built.output.splitlines() if "[crd]" in line]
    image = "      - image: registry.k8s.io/kueue/kueue:v0.18.1"
    at = manifest.read_text().splitlines().index(image) + 1, image.index("v0.18.1") + 1
    assert line == (
        f"kueue-manifests.yaml:{at[0]}:{at[1]}: warning: these Kueue CRDs are Kueue v0.18.1's; "
        "taugen follows Kueue v0.19.2 [crd]"
    )


def test_kubectl_get_crd_as_a_list_on_standard_input(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, None)
    monkeypatch.chdir(tmp_path)
    assert run("build").exit_code == 0
    listed = {"apiVersion": "v1", "kind": "List", "items": _crds(shared_crds("kueue"))}
    broken = _broken_flavor(tmp_path)

    result = CliRunner().invoke(main, ["validate", "--crd", "-", str(broken)], input=yaml.safe_dump(listed))
    printed = parse_text(result.output)
    assert result.exit_code == 1
    assert [f[3] for f in printed.findings] == ["cel"]
    assert printed.without_crd == "nfd.k8s-sigs.io (1)"


def test_build_crd_refuses_a_tree_the_given_crd_refuses(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--crd on build reaches the gate: a CRD whose rule the compiled flavors break stops the build
    (exit 1) and nothing is written."""
    stricter = yaml.safe_load((shared_crds("kueue") / FLAVOR_CRD).read_text())
    version = next(v for v in stricter["spec"]["versions"] if v["name"] == "v1beta2")
    rules = version["schema"]["openAPIV3Schema"]["properties"]["spec"].setdefault(
        "x-kubernetes-validations", []
    )
    rules.append({"rule": "!has(self.nodeTaints)", "message": "this cluster's Kueue takes no nodeTaints"})
    (tmp_path / "strict-crd.yaml").write_text(yaml.safe_dump(stricter))
    _project(tmp_path, None)
    monkeypatch.chdir(tmp_path)

    result = run("build", "--crd", "strict-crd.yaml")
    assert result.exit_code == 1, result.output
    assert "this cluster's Kueue takes no nodeTaints (cel)" in result.output
    assert not (tmp_path / "out").exists()
    assert run("build").exit_code == 0  # without it, the same tree builds


def test_a_changed_crd_file_is_a_new_build_not_a_cached_one(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    crd = tmp_path / "flavor-crd.yaml"
    shutil.copy(shared_crds("kueue") / FLAVOR_CRD, crd)
    _project(tmp_path, ["flavor-crd.yaml"])
    monkeypatch.chdir(tmp_path)
    assert run("build").exit_code == 0
    doc = yaml.safe_load(crd.read_text())
    version = next(v for v in doc["spec"]["versions"] if v["name"] == "v1beta2")
    version["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] = [
        {"rule": "!has(self.nodeTaints)", "message": "no nodeTaints here"}
    ]
    crd.write_text(yaml.safe_dump(doc))
    result = run("build")
    assert result.exit_code == 1 and "no nodeTaints here (cel)" in result.output, result.output


def test_a_crds_entry_that_names_nothing_is_refused_at_its_position(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, ["crds/*.yaml", "kueue.yaml"])
    monkeypatch.chdir(tmp_path)
    lines = project.read_text().splitlines()
    first = lines.index("- crds/*.yaml") + 1

    (tmp_path / "out").mkdir()
    for command in (("build",), ("validate", "out"), ("diff", "out", "out")):
        result = run(*command)
        assert result.exit_code == 2, (command, result.output)
        assert parse_usage(result.output) == [
            ("taugen.yaml", first, 3, "io", "error"),
            ("taugen.yaml", first + 1, 3, "io", "error"),
        ], result.output
        assert "crds: 'crds/*.yaml' matches no file" in result.output
        assert "crds: 'kueue.yaml' is no file or folder" in result.output


def test_diff_crd_checks_an_update_against_the_given_transition_rules(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, None)
    monkeypatch.chdir(tmp_path)
    assert run("build").exit_code == 0
    head = tmp_path / "head"
    shutil.copytree(tmp_path / "out", head)
    path = head / "c1" / "topology.yaml"
    path.write_text(path.read_text().replace("tau.azure.com/network-domain", "tau.azure.com/fabric"))

    result = run("diff", "out", "head", "--crd", shared_crds("kueue"), "--fail-on", "rejected")
    assert result.exit_code == 1, result.output
    assert (
        "2 risky" in result.output
        and "rejected by the API server [rejected]: the fields are immutable" in result.output
    )
