"""Which release a given CRD comes from, so that one of another Kueue release is said (issue 30).

A CRD does not carry its project's version. Two places say it where users get their CRDs:
the Helm chart labels every object `app.kubernetes.io/version` (Kueue's `charts/kueue`
`kueue.labels`), and a release manifest (`manifests.yaml`, kustomize-built) holds the
controller's Deployment, whose image tag is the release. A CRD that says neither is taken as
it is, with no warning: nothing tells its release.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

KUEUE_RELEASE = "v0.19.2"  # the Kueue release taugen's models, checks and simulation follow
KUEUE_GROUP = "kueue.x-k8s.io"
VERSION_LABEL = "app.kubernetes.io/version"
_KUEUE_IMAGE = re.compile(r"(?:^|/)kueue/kueue:(v?[0-9][^@\s]*)")  # registry.k8s.io/kueue/kueue:v0.19.2


def _normal(version: str) -> str:
    return version if version.startswith("v") else f"v{version}"


def crd_release(doc: dict[str, Any]) -> str | None:
    """The release a CRD's own labels name (Helm's `app.kubernetes.io/version`)."""
    labels = (doc.get("metadata") or {}).get("labels") or {}
    value = labels.get(VERSION_LABEL) if isinstance(labels, dict) else None
    return _normal(str(value)) if value else None


def release_of(docs: Iterable[dict[str, Any]]) -> str | None:
    """The Kueue release a release manifest installs: its controller image's tag."""
    for doc in docs:
        if doc.get("kind") != "Deployment":
            continue
        pod = ((doc.get("spec") or {}).get("template") or {}).get("spec") or {}
        for container in pod.get("containers") or []:
            found = _KUEUE_IMAGE.search(str(container.get("image", "")))
            if found:
                return _normal(found[1])
    return None


def other_release(group: str, release: str | None) -> str | None:
    """The CRD's release when it is a Kueue CRD of a release other than the one taugen follows."""
    if group != KUEUE_GROUP or release is None or release == KUEUE_RELEASE:
        return None
    return release


def where_said(path: Path, release: str) -> tuple[int, int]:
    """Line and column (1-based) where the file first names the release (a label or an image tag)."""
    text = path.read_text()
    exact = text.find(release)  # a label may write it without the v
    at = exact if exact >= 0 else max(text.find(release.removeprefix("v")), 0)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
