"""`taugen validate --kubeconform` with the real kubeconform (the kit's binary, alone): the
schemas it is handed are taugen's own, a given CRD's instead (issue 30), and Kubernetes' own
(issue 20), so its verdict on a Kueue object is the schema's, and every object of the example has one."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli.test_validate_cases import parse_text
from tests.conftest import REPO, Run, shared_crds
from tests.support.kubeconform import BINARY, require_kit

FLAVORS = REPO / "out" / "eastus-prod" / "resourceflavors.yaml"
NOTE = re.compile(r"^kubeconform: (\d+) resources checked, (\d+) failed, (\d+) skipped \(no schema\)$", re.M)


@pytest.fixture
def real_kubeconform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PATH with the kit's bare binary as `kubeconform` (not its `run`, which adds its own schemas)."""
    require_kit()
    bin_dir = tmp_path / "kubeconform-bin"
    bin_dir.mkdir()
    (bin_dir / "kubeconform").symlink_to(BINARY)
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), os.environ["PATH"]]))


def _note(output: str) -> tuple[int, int, int]:
    found = NOTE.findall(output)
    assert len(found) == 1, output
    checked, failed, skipped = map(int, found[0])
    return checked, failed, skipped


@pytest.mark.usefixtures("real_kubeconform")
def test_every_object_of_the_example_has_a_schema_and_passes(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    result = run("validate", "--kubeconform")

    assert result.exit_code == 0, result.output
    printed = parse_text(result.output)
    assert printed.summary["invalid"] == 0
    # admission.yaml's policy kinds included: none skipped for want of a schema
    assert _note(result.output) == (printed.summary["resources"], 0, 0)


def _unknown_field_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(FLAVORS.parent, tree)
    text = FLAVORS.read_text()
    old = "  name: taugrid-a100-80gb\n"  # the first flavor: its spec ends with topologyName
    end = text.index("  topologyName: taugrid-gpu-topology\n", text.index(old)) + len(
        "  topologyName: taugrid-gpu-topology\n"
    )
    (tree / "resourceflavors.yaml").write_text(text[:end] + "  colocation: rack\n" + text[end:])
    return tree


@pytest.mark.usefixtures("real_kubeconform")
def test_a_kueue_object_with_an_unknown_field_is_refused_by_kubeconform(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_unknown_field_tree(tmp_path))
    result = run("validate", ".", "--kubeconform")

    assert result.exit_code == 1, result.output
    printed = parse_text(result.output)
    found = sorted(zip(printed.findings, printed.subjects, printed.messages, strict=True))
    subject = "ResourceFlavor/taugrid-a100-80gb"
    assert [(f[3], s) for f, s, _ in found] == [("kubeconform", subject), ("schema", subject)]
    kubeconform_message = next(m for f, _, m in found if f[3] == "kubeconform")
    assert "additional properties 'colocation' not allowed" in kubeconform_message
    assert _note(result.output) == (printed.summary["resources"], 1, 0)


def _crd_with_colocation(tmp_path: Path) -> Path:
    """The upstream ResourceFlavor CRD, its v1beta2 spec given a `colocation` string."""
    flavor_crd = shared_crds("kueue") / "kueue.x-k8s.io_resourceflavors.yaml"
    crd: dict[str, Any] = yaml.safe_load(flavor_crd.read_text())
    version = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta2")
    version["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["colocation"] = {
        "type": "string"
    }
    path = tmp_path / "flavor-crd.yaml"
    path.write_text(yaml.safe_dump(crd))
    return path


@pytest.mark.usefixtures("real_kubeconform")
def test_a_crd_file_replaces_taugens_own_schema_for_kubeconform(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    crd = _crd_with_colocation(tmp_path)
    monkeypatch.chdir(_unknown_field_tree(tmp_path))
    result = run("validate", ".", "--kubeconform", "--crd", crd)

    assert result.exit_code == 0, result.output
    assert parse_text(result.output).findings == []
    assert _note(result.output) == (parse_text(result.output).summary["resources"], 0, 0)
