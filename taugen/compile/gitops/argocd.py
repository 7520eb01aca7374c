"""G6, Argo CD: two ApplicationSets, out/_argocd/, that an entry Application syncs.

`taugen` makes one Application per cluster core, `taugen-nodes` one per (cluster, shard). Both
use list generators whose elements the build writes from taugen.yaml and the compiled shards,
not a Git generator: what Argo CD deploys is what the reviewed build listed (issue 17), and
the repo-server never polls Git for it. A shard that appears or goes adds or removes one
element; a node that joins a shard changes nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taugen.compile.gitops.layout import Deployed, Part, labels
from taugen.compile.manifest import Manifest, object_
from taugen.models.gitops import ArgoCD

API = "argoproj.io/v1alpha1"
CORE_FILE, NODES_FILE = "applicationset.yaml", "applicationset-nodes.yaml"
# How long a failed sync waits before the next try: 10s, 20s, ... up to 5m, five times.
RETRY = {"limit": 5, "backoff": {"duration": "10s", "factor": 2, "maxDuration": "5m"}}


def applicationsets(argocd: ArgoCD, clusters: Sequence[Deployed]) -> list[Manifest]:
    cores = [c.core for c in clusters]
    shards = [s for c in clusters for s in c.shards]
    return [
        Manifest(CORE_FILE, _applicationset(argocd, "taugen", cores)),
        Manifest(NODES_FILE, _applicationset(argocd, "taugen-nodes", shards)),
    ]


def _applicationset(argocd: ArgoCD, name: str, parts: Sequence[Part]) -> dict[str, Any]:
    elements = [{"cluster": p.cluster, "name": p.name, "path": p.path} for p in parts]
    obj = object_(
        API,
        "ApplicationSet",
        name,
        argocd.namespace,
        spec={
            "goTemplate": True,
            "goTemplateOptions": ["missingkey=error"],
            # deleting the ApplicationSet or one of its Applications deletes nothing in a cluster
            "syncPolicy": {"preserveResourcesOnDeletion": True},
            "generators": [{"list": {"elements": elements}}],
            "template": _template(argocd),
        },
    )
    obj["metadata"]["labels"] = labels()
    return obj


def _template(argocd: ArgoCD) -> dict[str, Any]:
    return {
        "metadata": {
            "name": "{{.name}}",
            "labels": labels(),
            "annotations": {"argocd.argoproj.io/compare-options": "ServerSideDiff=true"},
        },
        "spec": {
            "project": argocd.project,
            "source": {"repoURL": argocd.repoURL, "targetRevision": argocd.revision, "path": "{{.path}}"},
            "destination": {"name": "{{.cluster}}"},  # the Argo CD cluster named like the taugen one
            "syncPolicy": {
                # prune is safe: partial Nodes carry Prune=false,Delete=false (§4)
                "automated": {"prune": True, "selfHeal": True},
                "syncOptions": ["ServerSideApply=true"],
                "retry": RETRY,
            },
        },
    }
