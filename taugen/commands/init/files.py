"""What `taugen init` writes: each file, from which template, and the schemas its YAML names."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from importlib.resources import files
from typing import Any

from taugen import __version__
from taugen.core.choices import Platform
from taugen.core.placeholders import fill
from taugen.models.schemas import schema_files

SCHEMAS_DIR = "schemas"  # the input kinds' JSON Schemas, for the `yaml-language-server` lines
TAUGEN_GIT = "https://github.com/tau-azure/taugen"  # pre-commit and CI install taugen from here


def taugen_ref(direct_url: str | None = None) -> str:
    """The ref the scaffolded CI and pre-commit install taugen at (issue 34): the commit the
    running taugen was installed from, when pip recorded one from TAUGEN_GIT (PEP 610's
    direct_url.json, `pip install git+…@REF`): it exists, since it was just fetched from there,
    and a commit cannot move. Otherwise (a wheel, a local checkout, a fork) the release tag
    `v<version>` (docs/development.md)."""
    try:
        found: Any = json.loads((_installed_direct_url() if direct_url is None else direct_url) or "{}")
    except ValueError:
        found = {}
    vcs = found.get("vcs_info") if isinstance(found, dict) else None
    url = str(found.get("url", "")).removesuffix("/").removesuffix(".git") if isinstance(found, dict) else ""
    commit = vcs.get("commit_id") if isinstance(vcs, dict) and vcs.get("vcs") == "git" else None
    if url == TAUGEN_GIT and isinstance(commit, str) and _SHA.fullmatch(commit):
        return commit
    return f"v{__version__}"


_SHA = re.compile(r"[0-9a-f]{40}")


@cache
def _installed_direct_url() -> str | None:
    try:
        return metadata.distribution("taugen").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None


FLEET_MANAGER = "fleet-hub"  # `init --fleet`: the MultiKueue manager (SPEC §11)


@dataclass(frozen=True)
class Context:
    cluster: str
    repo_url: str
    platform: Platform = "aks"
    fleet: bool = False  # a MultiKueue manager and two workers: <cluster> and <cluster>-2

    @property
    def clusters(self) -> list[str]:
        return [FLEET_MANAGER, self.cluster, f"{self.cluster}-2"] if self.fleet else [self.cluster]


def _per_cluster(context: Context) -> dict[str, tuple[str, Context]]:
    """Each cluster's inventory and Flux entry point, rendered with its own name."""
    found: dict[str, tuple[str, Context]] = {}
    for name in context.clusters:
        named = Context(name, context.repo_url, context.platform)
        found[f"inventory/{name}.yaml"] = ("inventory.yaml", named)
        found[f"flux/{name}.yaml"] = ("flux-kustomization.yaml", named)
    return found


def _templates(cluster: str, platform: Platform) -> dict[str, str]:
    """Target path in the new repository -> template file in taugen/commands/init/templates/."""
    return {
        "taugen.yaml": "taugen.yaml",
        f"inventory/{cluster}.yaml": "inventory.yaml",
        "values/tau-core-controller.yaml": "tau-core-controller.yaml"
        if platform == "aks"
        else f"rules-{platform}.yaml",
        ".pre-commit-config.yaml": "pre-commit-config.yaml",
        ".github/workflows/taugen.yaml": "github-workflow.yaml",
        ".gitlab-ci.yml": "gitlab-ci.yml",
        "argocd/taugen.yaml": "argocd-application.yaml",
        "argocd/argocd-cm-health.yaml": "argocd-cm-health.yaml",
        f"flux/{cluster}.yaml": "flux-kustomization.yaml",
    }


def _template(name: str) -> str:
    return files("taugen.commands.init").joinpath("templates", name).read_text(encoding="utf-8")


def _render(template: str, context: Context) -> bytes:
    text = _template(template)
    # The cluster fields that fit the platform (R37, R39, R41); AKS needs none.
    platform = "" if context.platform == "aks" else _template(f"platform-{context.platform}.yaml")
    values = {
        "__PLATFORM__": platform,
        "__MANAGER__": FLEET_MANAGER,
        "__WORKER2__": f"{context.cluster}-2",
        "__CLUSTER__": context.cluster,
        "__REPO_URL__": context.repo_url,
        "__TAUGEN_GIT__": TAUGEN_GIT,
        "__REF__": taugen_ref(),
    }
    return fill(text, values).encode()  # one pass: a --repo-url holding __CLUSTER__ stays as given


def scaffold_files(context: Context) -> dict[str, bytes]:
    """Relative path -> bytes, in a fixed order: the same context gives the same bytes."""
    out = {
        path: _render(template, context)
        for path, template in _templates(context.cluster, context.platform).items()
    }
    if context.fleet:
        out["taugen.yaml"] = _render("taugen-fleet.yaml", context)
        out |= {path: _render(template, named) for path, (template, named) in _per_cluster(context).items()}
        out = dict(sorted(out.items()))
    out |= {f"{SCHEMAS_DIR}/{name}": text for name, text in sorted(schema_files().items())}
    return out
