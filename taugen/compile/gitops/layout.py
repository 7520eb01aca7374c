"""What G6 deploys: each cluster's core and shards, their paths in the repository and the names
of the Applications and Kustomizations that sync them (unique across the project).

Written by the build from taugen.yaml's clusters and the shards their compile produced, never
found in Git: a folder a pull request adds under out/ is deployed by nothing (issue 17).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from taugen.compile.manifest import MANAGED_BY
from taugen.core.names import object_label_name
from taugen.models.gitops import OWN_PREFIX

PREFIX = OWN_PREFIX  # gitops.flux.dependsOn may not name one (models/gitops.py)


@dataclass(frozen=True)
class Part:
    """A kustomization root Argo CD or Flux syncs: a cluster's core (shard None) or a shard."""

    cluster: str
    shard: str | None
    path: str  # in the repository, e.g. out/eastus-prod/nodes/a100-80gb
    name: str  # of its Application and Kustomization


@dataclass(frozen=True)
class Deployed:
    cluster: str
    kueue: bool  # the core holds Kueue queues (health checks apply)
    core: Part
    shards: tuple[Part, ...]


def deployed(root: str, clusters: Iterable[tuple[str, bool, Iterable[str]]]) -> list[Deployed]:
    """Per cluster (name, kueue, shard folders), in name order whatever the input order."""
    listed = sorted((name, kueue, sorted(set(shards))) for name, kueue, shards in clusters)
    wanted: dict[tuple[str, str | None], str] = {(name, None): f"{PREFIX}{name}" for name, _, _ in listed}
    wanted |= {
        (name, s): f"{PREFIX}{name}-{s.replace('.', '-')}" for name, _, shards in listed for s in shards
    }
    names = _unique(wanted)
    return [
        Deployed(
            name,
            kueue,
            Part(name, None, f"{root}/{name}", names[(name, None)]),
            tuple(Part(name, s, f"{root}/{name}/nodes/{s}", names[(name, s)]) for s in shards),
        )
        for name, kueue, shards in listed
    ]


def _unique(wanted: dict[tuple[str, str | None], str]) -> dict[tuple[str, str | None], str]:
    """Each name a label value; a shard's name that another part also wants gets the digest of
    its own text (a trailing `/` makes it no label; a core keeps its name: cluster names are
    unique, so core names are)."""
    names = {key: object_label_name(text) for key, text in wanted.items()}
    counts = Counter(names.values())
    return {
        key: object_label_name(f"{wanted[key]}/") if key[1] is not None and counts[name] > 1 else name
        for key, name in names.items()
    }


def labels() -> dict[str, str]:
    return {MANAGED_BY: "taugen"}
