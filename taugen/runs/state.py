"""A cluster as render, preflight and `profiles` see it: its committed catalog and current inputs.

The current inputs are loaded and resolved exactly as `taugen build` does, so the digest they
give is the one a build would write into the catalog (R30); a different one means the
committed tree is stale (R32).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from taugen.compile.digest import inputs_digest
from taugen.errors import InputError, Problem
from taugen.load.profiles import LoadedProfile
from taugen.load.project import LoadedProject, load_cluster_inputs
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster, resolve
from taugen.runs.catalog import Catalog, read_catalog


@dataclass(frozen=True)
class ClusterState:
    loaded: LoadedProject
    cluster: Cluster
    resolved: ResolvedCluster
    folder: Path  # out/<cluster>/
    catalog: Catalog
    digest: str  # of the current inputs

    @property
    def stale(self) -> bool:
        return self.catalog.digest != self.digest

    @property
    def series_to_class(self) -> dict[str, str]:
        return self.resolved.rules.series_to_class()


def cluster_state(loaded: LoadedProject, cluster: Cluster, profiles: Sequence[LoadedProfile]) -> ClusterState:
    folder = loaded.output_root(None) / cluster.name
    catalog = read_catalog(folder)
    resolved = resolve(load_cluster_inputs(loaded, cluster))
    return ClusterState(loaded, cluster, resolved, folder, catalog, inputs_digest(resolved, profiles))


def stale_problem(state: ClusterState) -> Problem:
    return state.catalog.digest_at.problem(
        "R32",
        f"the profile catalog of cluster {state.cluster.name} is stale: it was resolved from inputs "
        f"{_short(state.catalog.digest)}, the current inputs are {_short(state.digest)}",
        "run `taugen build` and commit out/ and taugen.lock; nothing is rendered from a stale catalog",
    )


def require_fresh(state: ClusterState) -> None:
    """R32: a profile is rendered only from a catalog whose digest matches the current inputs."""
    if state.stale:
        raise InputError([stale_problem(state)])


def _short(digest: str) -> str:
    return digest[: len("sha256:") + 12] + "…"
