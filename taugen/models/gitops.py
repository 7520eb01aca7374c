"""The project's `gitops:` block: how the generated Argo CD and Flux files reach the tree (G6).

Each tool's files are generated only when its block is given: Argo CD needs the repository's
URL, which has no sensible default, and a project that wires its own GitOps gets no folder it
must then ignore.
"""

from __future__ import annotations

import posixpath
from typing import Annotated, Literal, Self

from pydantic import BeforeValidator, Field, StrictBool, field_validator, model_validator

from taugen.models.base import DNSLabel, DNSSubdomain, StrictModel, invalid


def _template_text(value: object) -> object:
    """Issue 32: repoURL and revision are written into the ApplicationSet's template, which Argo CD
    renders as a Go template (goTemplate: true): `{{` there would run as a template action. A
    space or control character is in no URL or Git revision either."""
    if not isinstance(value, str):
        return value
    if "{{" in value or "}}" in value:
        raise invalid(
            f"{value!r} holds a Go template delimiter ({{{{ or }}}}): Argo CD would run it as a "
            "template action",
            "write the URL or revision itself",
        )
    if bad := next((c for c in value if c.isspace() or not c.isprintable()), None):
        raise invalid(f"{value!r} holds {bad!r}, which no URL or Git revision holds", "remove it")
    return value


TemplateText = Annotated[str, Field(min_length=1), BeforeValidator(_template_text)]
RepoPath = Annotated[str, Field(min_length=1), BeforeValidator(_template_text)]


class ArgoCD(StrictModel):
    repoURL: TemplateText = Field(description="The Git URL Argo CD reads this repository from")
    revision: TemplateText = Field(default="HEAD", description="targetRevision: a branch, tag or commit")
    namespace: DNSLabel = Field(
        default="argocd", description="Where Argo CD runs: the ApplicationSets' namespace"
    )
    project: DNSSubdomain = Field(default="default", description="The AppProject of every Application")


class SourceRef(StrictModel):
    kind: Literal["GitRepository", "OCIRepository", "Bucket"] = "GitRepository"
    name: DNSSubdomain = "flux-system"
    namespace: DNSLabel | None = Field(default=None, description="Default: the Kustomization's namespace")


OWN_PREFIX = "taugen-"  # every Application and Kustomization taugen writes (compile/gitops/layout.py)


class Dependency(StrictModel):
    name: DNSSubdomain = Field(description="A Flux Kustomization every cluster's core waits for (Kueue's)")
    namespace: DNSLabel | None = None

    @field_validator("name")
    @classmethod
    def _not_taugens_own(cls, value: str) -> str:
        """Issue 32: a core that waits for `taugen-<cluster>` waits for itself (or for its own
        shards, which wait for it): Flux would apply none of them, silently."""
        if value.startswith(OWN_PREFIX):
            raise invalid(
                f"dependsOn {value!r} names one of taugen's own Kustomizations ({OWN_PREFIX}…): "
                "the cores would wait for themselves and Flux would apply none of them",
                "name the Kustomizations that install what the cores need (Kueue, NFD)",
            )
        return value


class Flux(StrictModel):
    namespace: DNSLabel = Field(default="flux-system", description="Where the Kustomizations live")
    sourceRef: SourceRef = Field(default_factory=SourceRef, description="The source holding this repository")
    dependsOn: list[Dependency] = Field(
        default_factory=list, description="What each core waits for: the Kustomizations installing Kueue, NFD"
    )
    hub: StrictBool = Field(
        default=False,
        description="One Flux for every cluster: each Kustomization applies through the Secret "
        "<cluster>-kubeconfig in its namespace (spec.kubeConfig.secretRef)",
    )


class GitOps(StrictModel):
    path: RepoPath = Field(
        default=".", description="The folder of taugen.yaml in the Git repository (default: its root)"
    )
    argocd: ArgoCD | None = Field(default=None, description="Write out/_argocd/: two ApplicationSets")
    flux: Flux | None = Field(default=None, description="Write out/_flux/<cluster>/: the Kustomizations")

    @field_validator("path")
    @classmethod
    def _relative(cls, value: str) -> str:
        if value.startswith("/") or "\\" in value or posixpath.normpath(value).split("/")[0] == "..":
            raise invalid(
                f"{value!r} is not a folder inside the repository",
                "write the folder of taugen.yaml relative to the repository's root, e.g. `.` or clusters",
            )
        return value

    @model_validator(mode="after")
    def _one_tool(self) -> Self:
        if self.argocd is None and self.flux is None:
            raise invalid(
                "the gitops block names neither argocd nor flux", "add `argocd:` or `flux:`, or remove it"
            )
        return self


def repo_folder(gitops: GitOps, output: str) -> str | None:
    """The output root as a path in the repository, or None when it lies outside it."""
    if output.startswith("/"):
        return None
    folder = posixpath.normpath(posixpath.join(gitops.path, output))
    return None if folder == ".." or folder.startswith("../") or folder == "." else folder
