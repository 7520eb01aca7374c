"""Issue 18: with CI set, a test that needs ../shared fails when it is missing; without CI it
skips (a user's clone has no ../shared). Run in a scratch tree with this repository's conftest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
NEEDS = """
import pytest
from tests.conftest import SHARED

def test_needs_shared():
    if not (SHARED / "crds").is_dir():
        pytest.skip(f"{SHARED / 'crds'} is absent")
"""


@pytest.mark.parametrize(("ci", "code"), [(True, 1), (False, 0)])
def test_a_missing_shared_fails_only_on_ci(tmp_path: Path, ci: bool, code: int) -> None:
    tests = tmp_path / "repo" / "tests"
    tests.mkdir(parents=True)
    (tests / "__init__.py").write_text("")
    shutil.copy(CONFTEST, tests / "conftest.py")
    (tests / "test_needs.py").write_text(NEEDS)
    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "true"} if ci else {})
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path / "repo",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == code, result.stdout + result.stderr
    assert ("CI is set, and this test needs" in result.stdout) is ci
