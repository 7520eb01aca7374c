"""taugen: compile a GPU cluster's inventory into Kueue manifests for GitOps."""

from __future__ import annotations

__version__ = "0.1.0"

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # the installed package: its schemas/ and profiles/
