"""The G6 folders of the output root: `_argocd/` and `_flux/<cluster>/` (names in taugen.core.names)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from taugen.compile.gitops.argocd import applicationsets
from taugen.compile.gitops.flux import kustomizations
from taugen.compile.gitops.layout import Deployed, deployed
from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels.base import NODES_DIR
from taugen.core.names import ARGOCD_FOLDER, FLUX_FOLDER
from taugen.models.gitops import Flux, repo_folder
from taugen.models.project import Project

KUSTOMIZATION = "kustomization.yaml"


def shard_folders(files: Iterable[str]) -> list[str]:
    """The node-label shards of a compiled cluster folder: nodes/<shard>/ with a kustomization."""
    return sorted(
        parts[1]
        for rel in files
        if len(parts := rel.split("/")) == 3 and parts[0] == NODES_DIR and parts[2] == KUSTOMIZATION
    )


@dataclass(frozen=True)
class GitOpsTree:
    folders: dict[str, list[Manifest]] = field(default_factory=dict)  # under the output root
    # a folder whose kustomization.yaml lists these subfolders: a Flux hub's `_flux/` (one entry
    # syncs every cluster). Per-cluster Flux has none: a cluster's Flux that synced `_flux/`
    # would apply every cluster's Kustomizations into itself.
    listed: dict[str, list[str]] = field(default_factory=dict)


def gitops_manifests(project: Project, shards: Mapping[str, Iterable[str]]) -> GitOpsTree:
    """The G6 folders of every cluster of the project; nothing without a gitops block.
    `shards`: each cluster's shard folders, as its compile wrote them."""
    gitops = project.gitops
    root = None if gitops is None else repo_folder(gitops, project.output)
    if gitops is None or root is None:
        return GitOpsTree()
    clusters = deployed(
        root, [(c.name, c.capabilities.queue_health, shards[c.name]) for c in project.clusters]
    )
    folders: dict[str, list[Manifest]] = {}
    if gitops.argocd is not None:
        folders[ARGOCD_FOLDER] = applicationsets(gitops.argocd, clusters)
    listed = {}
    if gitops.flux is not None:
        folders |= {f"{FLUX_FOLDER}/{c.cluster}": _flux(project, gitops.flux, c, clusters) for c in clusters}
        if gitops.flux.hub:
            listed[FLUX_FOLDER] = [c.cluster for c in clusters]
    return GitOpsTree(dict(sorted(folders.items())), listed)


def _flux(project: Project, flux: Flux, cluster: Deployed, clusters: Sequence[Deployed]) -> list[Manifest]:
    """A MultiKueue manager's core waits for its workers' cores in a hub (flux.py)."""
    fleet = project.multikueue
    if fleet is None or fleet.manager != cluster.cluster:
        return kustomizations(flux, cluster)
    cores = {c.cluster: c.core for c in clusters}
    workers = [cores[w] for w in fleet.workers] if flux.hub else []
    return kustomizations(flux, cluster, manager=True, workers=workers)
