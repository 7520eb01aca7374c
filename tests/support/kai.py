"""The two-scheduler lab (SPEC §8): the runs project's inputs compiled for Kueue and for KAI."""

from __future__ import annotations

import shutil
from pathlib import Path

from taugen.commands.build import BuildOptions, build
from tests.support.runs import PROJECT

KAI_CASES = Path(__file__).resolve().parents[1] / "cases" / "kai"
KAI_RUNS = KAI_CASES / "runs"
KAI_CLUSTER, KUEUE_CLUSTER = "lab-kai", "lab-kueue"


def build_kai_lab(dest: Path) -> Path:
    """Copy the runs project's inputs and the two-cluster project file into dest, build; the project file."""
    shutil.copytree(PROJECT, dest, dirs_exist_ok=True)
    shutil.copyfile(KAI_CASES / "taugen.yaml", dest / "taugen.yaml")
    build(BuildOptions(project_file=dest / "taugen.yaml"))
    return dest / "taugen.yaml"


def tree_files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }
