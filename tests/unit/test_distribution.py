"""Issue 21: what a user installs — the license, the package metadata, the container recipe."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from typing import Any

import pytest

from taugen import __version__
from taugen.commands.init import files
from taugen.commands.init.files import TAUGEN_GIT, Context, scaffold_files, taugen_ref
from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_the_license_file_is_the_license_the_package_declares() -> None:
    text = (REPO / "LICENSE").read_text()
    assert PYPROJECT["license"] == "Apache-2.0" and PYPROJECT["license-files"] == ["LICENSE"]
    assert text.startswith("Apache License\n") and "Version 2.0, January 2004" in text


def test_the_metadata_says_what_taugen_is_and_where_it_lives() -> None:
    assert "Typing :: Typed" in PYPROJECT["classifiers"]
    assert PYPROJECT["requires-python"] == ">=3.11"
    assert set(PYPROJECT["urls"]) == {"Homepage", "Issues"}
    assert (REPO / "taugen" / "py.typed").is_file()


def test_the_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint") or str(REPO / ".venv" / "bin" / "hadolint")
    result = subprocess.run([hadolint, str(REPO / "Dockerfile")], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, "")


def test_the_image_is_multi_stage_unprivileged_with_taugen_as_entrypoint() -> None:
    lines = [
        line for line in (REPO / "Dockerfile").read_text().splitlines() if line and not line.startswith("#")
    ]
    stages = [line for line in lines if line.startswith("FROM ")]
    assert len(stages) == 2 and stages[0].endswith(" AS build")
    assert "USER 10001" in lines and lines.index("USER 10001") > lines.index(stages[1])
    assert 'ENTRYPOINT ["taugen"]' in lines


# Issue 21: every recipe installs the version being run, from the tag v<version> (docs/development.md).
REF = re.compile(r"(?:github\.com/tau-azure/taugen|tau-azure/taugen)@(\S+?)[\"`\s]|rev: (\S+)")
RECIPES = (
    "README.md",
    "action.yml",
    ".pre-commit-hooks.yaml",
    *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").glob("*.md")),
)
TEMPLATES = ("github-workflow.yaml", "gitlab-ci.yml", "pre-commit-config.yaml")


def _refs(text: str) -> list[str]:
    return [a or b for a, b in REF.findall(text)]


def test_the_package_version_is_the_one_version() -> None:
    assert PYPROJECT["version"] == __version__


def test_every_recipe_names_the_tag_of_this_version() -> None:
    """README, docs and the hooks' example name v<version>; the action names no version at all
    (it installs its own checkout), so a release changes pyproject and these lines only."""
    found = {path: _refs((REPO / path).read_text()) for path in RECIPES}
    assert {path: refs for path, refs in found.items() if set(refs) - {f"v{__version__}"}} == {}
    assert sum(map(len, found.values())) >= 5  # the docs' install lines, action, pre-commit
    assert found["action.yml"] == []


def test_every_init_recipe_takes_the_version_it_is_rendered_with() -> None:
    """The templates say `__REF__`, never a literal version; init writes the running one's ref
    (here an editable checkout, which pip records no commit for: the tag v<version>)."""
    for name in TEMPLATES:
        text = (REPO / "taugen" / "commands" / "init" / "templates" / name).read_text()
        assert set(_refs(text.replace("__TAUGEN_GIT__", "https://github.com/tau-azure/taugen"))) == {
            "__REF__"
        }, name
    rendered = {path: _refs(text.decode()) for path, text in scaffold_files(Context("c1", "u")).items()}
    assert {ref for refs in rendered.values() for ref in refs} == {f"v{__version__}"}


SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("direct_url", "ref"),
    [
        # pip install "taugen @ git+https://github.com/tau-azure/taugen@main": the commit it fetched
        (
            {"url": TAUGEN_GIT, "vcs_info": {"vcs": "git", "commit_id": SHA, "requested_revision": "main"}},
            SHA,
        ),
        ({"url": f"{TAUGEN_GIT}.git", "vcs_info": {"vcs": "git", "commit_id": SHA}}, SHA),
        # a fork's commit may not exist in TAUGEN_GIT, which the scaffolds install from
        ({"url": "https://github.com/someone/taugen", "vcs_info": {"vcs": "git", "commit_id": SHA}}, None),
        ({"url": TAUGEN_GIT, "vcs_info": {"vcs": "git", "commit_id": "main"}}, None),  # not a commit
        ({"url": "file:///src/taugen", "dir_info": {"editable": True}}, None),  # a local checkout
        (None, None),  # a wheel: pip records no direct URL
        ("not json", None),
    ],
)
def test_init_pins_the_commit_taugen_was_installed_from_else_the_release_tag(
    direct_url: Any, ref: str | None
) -> None:
    """Issue 34 (8): a scaffold pins a ref that exists: the commit pip installed the running
    taugen from (PEP 610), else v<version>."""
    text = direct_url if direct_url is None or isinstance(direct_url, str) else json.dumps(direct_url)
    assert taugen_ref(text if text is not None else "") == (ref or f"v{__version__}")


def test_every_init_recipe_pins_the_installed_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed from TAUGEN_GIT at a commit, every scaffolded recipe installs that commit."""
    recorded = {"url": TAUGEN_GIT, "vcs_info": {"vcs": "git", "commit_id": SHA, "requested_revision": "main"}}
    monkeypatch.setattr(files, "_installed_direct_url", lambda: json.dumps(recorded))
    rendered = {path: _refs(text.decode()) for path, text in scaffold_files(Context("c1", "u")).items()}
    assert {path: refs for path, refs in rendered.items() if refs} == {
        ".github/workflows/taugen.yaml": [SHA],
        ".gitlab-ci.yml": [SHA],
        ".pre-commit-config.yaml": [SHA],
    }
