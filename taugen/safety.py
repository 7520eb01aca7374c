"""Nothing outside the output root is written, and no input lies inside it (§4)."""

from __future__ import annotations

from pathlib import Path

from taugen.errors import InputError, Problem
from taugen.load.profiles import profile_files
from taugen.load.project import LoadedProject

HINT = "set `output:` in taugen.yaml to a folder that holds only taugen's output"


def check_output_root(loaded: LoadedProject, root: Path) -> None:
    where = loaded.doc.at(["output"])
    resolved = root.resolve()
    if root.is_symlink():
        target = root.readlink()
        message = f"output root {root} is a symbolic link (to {target}): a build would write through it"
        raise InputError([where.problem("output", message, HINT)])
    if root.exists() and not root.is_dir():
        raise InputError([where.problem("output", f"output root {root} is a file, not a folder", HINT)])
    problems: list[Problem] = []
    for source in _inputs(loaded):
        if source.resolve() == resolved or resolved in source.resolve().parents:
            problems.append(
                where.problem(
                    "output",
                    f"output root {root} contains the input {source}: a build would replace it",
                    HINT,
                )
            )
    if problems:
        raise InputError(problems)


def _inputs(loaded: LoadedProject) -> list[Path]:
    files = [loaded.doc.path, loaded.lock_path]
    for cluster in loaded.project.clusters:
        files.append(loaded.root / cluster.inventory)
        files += [loaded.root / r for r in cluster.rules]
    return files + profile_files(loaded.profile_sources())
