"""Issue 21: what a user installs — the license, the package metadata, the container recipe."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

from taugen import __version__
from taugen.commands.init.files import Context, scaffold_files
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
    """The templates say `v__VERSION__`, never a literal version; init writes the running one."""
    for name in TEMPLATES:
        text = (REPO / "taugen" / "commands" / "init" / "templates" / name).read_text()
        assert set(_refs(text.replace("__TAUGEN_GIT__", "https://github.com/tau-azure/taugen"))) == {
            "v__VERSION__"
        }, name
    rendered = {path: _refs(text.decode()) for path, text in scaffold_files(Context("c1", "u")).items()}
    assert {ref for refs in rendered.values() for ref in refs} == {f"v{__version__}"}
