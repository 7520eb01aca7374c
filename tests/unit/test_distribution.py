"""Issue 21: what a user installs — the license, the package metadata, the container recipe."""

from __future__ import annotations

import shutil
import subprocess
import tomllib

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
