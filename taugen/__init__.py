"""taugen: compile a GPU cluster's inventory into Kueue manifests for GitOps."""

from __future__ import annotations

__version__ = "0.1.0"
