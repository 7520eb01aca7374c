"""Headless Chromium for the report's browser tests (Debian's `chromium`, installed by .ci/run).

Two one-shot runs per page: `--dump-dom` (the DOM after the page's script ran) and
`--screenshot`. Tests skip when no Chromium is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WINDOW = "1400,1000"
TIMEOUT = 180  # seconds; a 100k-host page takes a few

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium installed (apt-get install chromium)"
)


def _flags(profile: Path) -> list[str]:
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--window-size={WINDOW}",
        f"--user-data-dir={profile}",
    ]


def _chromium(page: Path, work: Path, *extra: str) -> str:
    assert CHROMIUM is not None
    profile = work / "chromium-profile"
    profile.mkdir(exist_ok=True)
    done = subprocess.run(
        [CHROMIUM, *_flags(profile), *extra, page.resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dump_dom(page: Path, work: Path) -> str:
    return _chromium(page, work, "--dump-dom")


def screenshot(page: Path, work: Path) -> bytes:
    target = work / (page.stem + ".png")
    _chromium(page, work, f"--screenshot={target}")
    return target.read_bytes()
