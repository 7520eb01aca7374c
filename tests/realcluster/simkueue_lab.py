"""The differentials played on the repository's lab project (tests/support/runs.PROJECT): a copy
with a cluster entry's fields and profiles of a test's own, built, and named sets of runs played
through the real Kueue and `taugen simulate` (simkueue_suite)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from taugen.commands.build import BuildOptions, build
from tests.realcluster.kube import Kube
from tests.realcluster.simkueue_suite import Case, Played, plan_cases, play_all
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT

SET = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet"}


def lab_project(
    root: Path, cluster: Mapping[str, Any] | None = None, profiles: Mapping[str, Any] | None = None
) -> Path:
    """The lab project copied to `root`, its cluster's entry updated with `cluster`, `profiles`
    (name -> WorkloadProfile) written beside its own, built; its taugen.yaml."""
    shutil.copytree(PROJECT, root, dirs_exist_ok=True)
    for name, doc in (profiles or {}).items():
        write_yaml(root / "profiles" / f"{name}.yaml", doc)
    if cluster:
        doc = yaml.safe_load((root / "taugen.yaml").read_text())
        doc["clusters"][0].update(cluster)
        write_yaml(root / "taugen.yaml", doc)
    build(BuildOptions(project_file=root / "taugen.yaml"))
    return root / "taugen.yaml"


def play_sets(
    kube: Kube,
    project: Path,
    folder: Path,
    sets: Mapping[str, Sequence[Mapping[str, Any]]],
    prefix: str,
    alive: Callable[[], bool],
) -> list[Played]:
    """Each named set of runs as a WorkloadSet in `folder`, simulated and played (its objects on
    the real cluster prefixed `<prefix><name>`)."""
    cases = [
        Case(name, write_yaml(folder / f"{name}.yaml", {**SET, "runs": list(runs)}), None, f"{prefix}{name}")
        for name, runs in sets.items()
    ]
    played, _ = play_all(kube, plan_cases(project, cases), alive)
    return played
