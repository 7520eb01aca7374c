"""The differentials played on the repository's lab project (tests/support/runs.PROJECT): a copy
with a cluster entry's fields and profiles of a test's own, built, and named sets of runs played
through the real Kueue and `taugen simulate` (simkueue_suite)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.realcluster.kube import Kube
from tests.realcluster.simkueue_suite import Case, Played, plan_cases, play_all
from tests.support.helpers import write_yaml

SET = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet"}


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
