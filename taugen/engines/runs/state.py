"""A cluster as render, preflight and `profiles` see it: its committed catalog and current inputs.

The current inputs are loaded and resolved exactly as `taugen build` does, so the digest they
give is the one a build would write into the catalog (R30); a different one means the
committed tree is stale (R32).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.compile.catalog import CATALOG_FILE, CATALOG_KEY, catalog
from taugen.compile.digest import catalog_digest
from taugen.context.catalog import Catalog, CatalogBody
from taugen.context.cluster import ClusterView
from taugen.context.session import ProjectContext
from taugen.context.tree import CompiledTree
from taugen.core.errors import InputError, Problem
from taugen.load.compiled import tree_documents
from taugen.load.project import LoadedProject
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster


@dataclass(frozen=True)
class ClusterState:
    view: ClusterView  # the current inputs, resolved once (taugen/context)
    tree: CompiledTree  # the committed out/<cluster>/
    catalog: Catalog
    digest: str  # of the current inputs
    expected: CatalogBody  # what a build of the current inputs writes (issue 17: never trust an edit)

    @property
    def loaded(self) -> LoadedProject:
        return self.view.loaded

    @property
    def cluster(self) -> Cluster:
        return self.view.cluster

    @property
    def resolved(self) -> ResolvedCluster:
        return self.view.resolved

    @property
    def folder(self) -> Path:
        """out/<cluster>/"""
        return self.tree.folder

    @property
    def stale(self) -> bool:
        return self.catalog.digest != self.digest or self.catalog.body != self.expected

    @property
    def series_to_class(self) -> dict[str, str]:
        return self.resolved.rules.series_to_class()


def cluster_state(project: ProjectContext, cluster: Cluster) -> ClusterState:
    """The committed catalog beside the one a build of the current inputs writes (R30, R32);
    exit 2 when the cluster is not built, before its inputs are resolved."""
    profiles = project.profiles
    tree = project.tree(cluster)
    committed = tree.catalog()
    view = project.cluster(cluster)
    quotas = list(view.quotas)
    tiers = view.loaded.project.tiers  # R50
    digest = catalog_digest(view.resolved, profiles, quotas, tiers)
    text = catalog(view.resolved, profiles, quotas, digest, tiers=tiers).obj["data"][CATALOG_KEY]
    # read back as the committed catalog is (load/compiled.py), so the two compare alike
    expected = CatalogBody.model_validate(tree_documents(view.folder / CATALOG_FILE, text)[0])
    return ClusterState(view, tree, committed, digest, expected)


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
