"""Issue 30: the repository and the wheel hold only what the team wrote. No upstream CRD, changed
or not: a CustomResourceDefinition is committed only as a fixture of the team's own (a group of
its own tests, no generator's stamp), and no committed file is a copy of one in ../shared/crds.
Upstream CRDs are read where they are: ../shared/crds in tests, the user's cluster or repository
(`--crd`, `crds:`) in the product."""

from __future__ import annotations

import hashlib
import subprocess
import zipfile
from pathlib import Path

import pytest
import yaml
from hatchling.builders.wheel import WheelBuilder

from tests.conftest import REPO, SHARED

OWN_GROUPS = frozenset({"example.com"})  # the groups of the team's own test CRDs
STAMPS = ("controller-gen.kubebuilder.io", "helm.sh/chart")  # what an upstream CRD carries
TEXT = (".yaml", ".yml", ".json", ".md", ".py", ".txt", ".toml", ".tpl")


def _committed() -> list[Path]:
    names = (
        subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    return [REPO / name for name in names if name and (REPO / name).is_file()]


def crd_groups(text: str) -> list[str]:
    """The groups of the CustomResourceDefinition documents in a YAML or JSON text."""
    if "CustomResourceDefinition" not in text:
        return []
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return ["<unreadable, naming CustomResourceDefinition>"]
    found = []
    for doc in docs:
        items = doc.get("items") if isinstance(doc, dict) and doc.get("kind") == "List" else [doc]
        for item in items or []:
            if isinstance(item, dict) and item.get("kind") == "CustomResourceDefinition":
                found.append(str((item.get("spec") or {}).get("group")))
    return found


def upstream_marks(name: str, text: str) -> list[str]:
    """What makes a file look upstream: a generator's stamp, or a CRD of a group not the team's."""
    marks = [stamp for stamp in STAMPS if stamp in text]
    if name.endswith((".yaml", ".yml", ".json")):
        marks += [f"CRD of {g}" for g in crd_groups(text) if g not in OWN_GROUPS]
    return marks


def test_the_checks_can_fail() -> None:
    crd = (
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: kueue.x-k8s.io}\n"
    )
    assert upstream_marks("c.yaml", crd) == ["CRD of kueue.x-k8s.io"]
    listed = yaml.safe_dump({"kind": "List", "items": [yaml.safe_load(crd)]})
    assert upstream_marks("c.yaml", listed) == ["CRD of kueue.x-k8s.io"]
    stamped = "metadata:\n  annotations:\n    controller-gen.kubebuilder.io/version: v0.20.1\n"
    assert upstream_marks("c.yaml", stamped) == ["controller-gen.kubebuilder.io"]
    own = crd.replace("kueue.x-k8s.io", "example.com")
    assert upstream_marks("c.yaml", own) == []


def test_no_committed_file_is_an_upstream_crd() -> None:
    files = _committed()
    assert len(files) > 500  # git answered: the whole checkout is read
    this = Path(__file__).resolve()
    found = {
        path.relative_to(REPO).as_posix(): marks
        for path in files
        if path.suffix in TEXT
        and path.resolve() != this
        and (marks := upstream_marks(path.name, path.read_text(errors="replace")))
    }
    assert found == {}


def test_no_committed_file_is_a_copy_of_a_shared_crd() -> None:
    shared = SHARED / "crds"
    if not shared.is_dir():
        pytest.skip(f"{shared} is absent")
    theirs = {hashlib.sha256(p.read_bytes()).hexdigest() for p in shared.rglob("*") if p.is_file()}
    ours = {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in _committed()}
    assert len(theirs) > 10
    assert [ours[h].relative_to(REPO).as_posix() for h in theirs & ours.keys()] == []


def test_the_wheel_holds_no_upstream_file(tmp_path: Path) -> None:
    (wheel,) = WheelBuilder(str(REPO)).build(directory=str(tmp_path), versions=["standard"])
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        found = {
            name: marks
            for name in names
            if name.endswith(TEXT)
            and (marks := upstream_marks(name, archive.read(name).decode(errors="replace")))
        }
    assert "taugen/cli/__init__.py" in names and not any(name.startswith("taugen/crds/") for name in names)
    assert found == {}


def test_the_wheel_packages_the_one_committed_schema_tree(tmp_path: Path) -> None:
    """Issue 33: schemas/ is the only committed copy; the wheel carries it as taugen/schemas."""
    (wheel,) = WheelBuilder(str(REPO)).build(directory=str(tmp_path), versions=["standard"])
    committed = {
        f"taugen/schemas/{p.relative_to(REPO / 'schemas').as_posix()}": p.read_bytes()
        for p in (REPO / "schemas").rglob("*.json")
    }
    with zipfile.ZipFile(wheel) as archive:
        packaged = {n: archive.read(n) for n in archive.namelist() if n.startswith("taugen/schemas/")}
    assert len(committed) > 20
    assert packaged == committed
    assert [p for p in _committed() if p.is_relative_to(REPO / "taugen" / "schemas")] == []
