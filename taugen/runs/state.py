"""A cluster as render, preflight and `profiles` see it: its committed catalog and current inputs.

The current inputs are loaded and resolved exactly as `taugen build` does, so the digest they
give is the one a build would write into the catalog (R30); a different one means the
committed tree is stale (R32).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from taugen.compile.catalog import CATALOG_FILE, CATALOG_KEY, catalog
from taugen.compile.digest import catalog_digest
from taugen.compile.quota import ClassQuota, plan_quotas
from taugen.errors import InputError, Problem
from taugen.load.compiled import tree_documents
from taugen.load.profiles import LoadedProfile
from taugen.load.project import LoadedProject, load_cluster_inputs
from taugen.lock.history import quota_history
from taugen.lock.lockfile import read_lock
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster, resolve
from taugen.runs.catalog import Catalog, CatalogBody, read_catalog


@dataclass(frozen=True)
class ClusterState:
    loaded: LoadedProject
    cluster: Cluster
    resolved: ResolvedCluster
    folder: Path  # out/<cluster>/
    catalog: Catalog
    digest: str  # of the current inputs
    expected: CatalogBody  # what a build of the current inputs writes (issue 17: never trust an edit)

    @property
    def stale(self) -> bool:
        return self.catalog.digest != self.digest or self.catalog.body != self.expected

    @property
    def series_to_class(self) -> dict[str, str]:
        return self.resolved.rules.series_to_class()


def cluster_state(loaded: LoadedProject, cluster: Cluster, profiles: Sequence[LoadedProfile]) -> ClusterState:
    folder = loaded.output_root(None) / cluster.name
    committed = read_catalog(folder)
    resolved = resolve(load_cluster_inputs(loaded, cluster))
    quotas = current_quotas(loaded, cluster, resolved)
    digest = catalog_digest(resolved, profiles, quotas)
    text = catalog(resolved, profiles, quotas, digest).obj["data"][CATALOG_KEY]
    # read back as the committed catalog is (load/compiled.py), so the two compare alike
    expected = CatalogBody.model_validate(tree_documents(folder / CATALOG_FILE, text)[0])
    return ClusterState(loaded, cluster, resolved, folder, committed, digest, expected)


def current_quotas(loaded: LoadedProject, cluster: Cluster, resolved: ResolvedCluster) -> list[ClassQuota]:
    """The quotas a build of the current inputs writes (R26: the lock's, else the tree's, marks)."""
    history = quota_history(
        cluster, read_lock(loaded.lock_path), loaded.lock_path, loaded.output_root(None) / cluster.name
    )
    return plan_quotas(resolved, history.marks, allow_decrease=False)[0]


def stale_problem(state: ClusterState) -> Problem:
    return state.catalog.digest_at.problem(
        "R32",
        f"the profile catalog of cluster {state.cluster.name} is stale: it was resolved from inputs "
        f"{_short(state.catalog.digest)}, the current inputs are {_short(state.digest)}"
        if state.catalog.digest != state.digest
        else f"the profile catalog of cluster {state.cluster.name} is not what a build of the current "
        "inputs writes (edited by hand?)",
        "run `taugen build` and commit out/ and taugen.lock; nothing is rendered from a stale catalog",
    )


def require_fresh(state: ClusterState) -> None:
    """R32: a profile is rendered only from a catalog whose digest matches the current inputs."""
    if state.stale:
        raise InputError([stale_problem(state)])


def _short(digest: str) -> str:
    return digest[: len("sha256:") + 12] + "…"
