"""Where the real programs are: the cache tools/realcluster/build fills (issue 31), or the
folder $TAUGEN_REALCLUSTER_BIN names. Absent programs are a reason (one line), not an error:
the fixture skips on it, or fails when $TAUGEN_REQUIRE_REALCLUSTER=1 (CI)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO

BUILD = REPO / "tools" / "realcluster" / "build"
PROGRAMS = ("etcd", "kube-apiserver", "minimalkueue", "kustomize", "kubeconform")
REQUIRE = "TAUGEN_REQUIRE_REALCLUSTER"
MANAGER = "kueue"  # Kueue's full manager (issue 35): built only with --with-manager


@dataclass(frozen=True)
class Binaries:
    folder: Path
    kueue_crds: Path  # config/components/crd/bases/ of Kueue's module download

    def __getitem__(self, program: str) -> str:
        return str(self.folder / program)


def find_binaries() -> Binaries | str:
    """The programs and Kueue's CRDs, or why they cannot be had (one line)."""
    folder = os.environ.get("TAUGEN_REALCLUSTER_BIN") or _script("--print-bin")
    if folder.startswith("realcluster:"):
        return folder
    missing = [p for p in PROGRAMS if not os.access(Path(folder) / p, os.X_OK)]
    if missing:
        return f"realcluster: {', '.join(missing)} not built in {folder}: run {BUILD.relative_to(REPO)}"
    crds = _script("--print-kueue-crds")
    if crds.startswith("realcluster:"):
        return crds
    return Binaries(Path(folder), Path(crds))


def missing_manager(found: Binaries) -> str | None:
    """Why Kueue's full manager cannot be had (one line), or None when it is built."""
    if os.access(found.folder / MANAGER, os.X_OK):
        return None
    build = f"{BUILD.relative_to(REPO)} --with-manager"
    return f"realcluster: Kueue's manager not built in {found.folder}: run {build}"


def _script(option: str) -> str:
    """One line the build script prints: a path, or its own one-line reason when it fails."""
    done = subprocess.run([str(BUILD), option], capture_output=True, text=True, timeout=300, check=False)
    if done.returncode == 0:
        return done.stdout.strip()
    lines = (done.stderr or done.stdout).strip().splitlines() or [
        f"{BUILD} {option} exited {done.returncode}"
    ]
    return lines[-1] if lines[-1].startswith("realcluster:") else f"realcluster: {lines[-1]}"
