"""Emit G6's folders: each a kustomization root of its own, grouped by the output root's folder
they live in (`_flux/<cluster>` is inside `_flux`), as the write stage swaps them."""

from __future__ import annotations

from taugen.compile.gitops.tree import GitOpsTree
from taugen.emit.canonical import KUSTOMIZATION, emit_objects, kustomization, render


def render_folders(tree: GitOpsTree) -> dict[str, dict[str, bytes]]:
    """Top folder -> its files (paths relative to it), every root with its kustomization.yaml."""
    out: dict[str, dict[str, bytes]] = {
        top: {KUSTOMIZATION: kustomization(subs)} for top, subs in tree.listed.items()
    }
    for folder, manifests in sorted(tree.folders.items()):
        top, _, inner = folder.partition("/")
        prefix = f"{inner}/" if inner else ""
        files = render(emit_objects(manifests))
        out.setdefault(top, {}).update({f"{prefix}{rel}": data for rel, data in files.items()})
    return {top: dict(sorted(files.items())) for top, files in out.items()}
